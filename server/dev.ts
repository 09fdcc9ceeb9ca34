import { parseServerArgs, SERVER_USAGE } from "./process/config";
import { installShutdown } from "./process/lifecycle";
import { REPO_ROOT } from "./process/paths";
import { demoNotice, startKeyscope } from "./process/start";

/**
 * `npm run dev`: the API exactly as `npm start` runs it (never building the dashboard), and Vite's dev server
 * on 5173 in front of it, proxying /v2 and /docs to it (see vite.config.ts).
 */

const VITE_PORT = 5173;

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const parsed = parseServerArgs(process.argv.slice(2));
  if (parsed.kind === "help") {
    process.stdout.write(SERVER_USAGE.replace("npm start --", "npm run dev --"));
    return;
  }
  if (parsed.kind === "error") {
    process.stderr.write(`keyscope dev: ${parsed.message} (see --help)\n`);
    process.exit(2);
  }
  const config = { ...parsed.config, build: false };

  const api = await startKeyscope(config);
  for (const line of demoNotice(api)) say(line);
  say(`Keyscope is running at ${api.url}`);

  // vite.config.ts reads this when it loads, which createServer does next.
  process.env.KEYSCOPE_API_ORIGIN = api.url;
  const { createServer } = await import("vite");
  const vite = await createServer({ root: REPO_ROOT, clearScreen: false, server: { port: VITE_PORT } });
  await vite.listen();
  const dashboardUrl = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${VITE_PORT}/`;
  say(`Dashboard (Vite, hot reload) at ${dashboardUrl}`);

  installShutdown(
    async () => {
      await vite.close();
      await api.close();
    },
    (line) => process.stderr.write(`${line}\n`),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`keyscope dev: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
