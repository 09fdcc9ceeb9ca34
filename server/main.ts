import { buildDashboard, dashboardIsStale } from "./dashboard/build-dashboard";
import { displayUrl, parseServerArgs, SERVER_USAGE } from "./process/config";
import { installShutdown } from "./process/lifecycle";
import { REPO_ROOT } from "./process/paths";
import type { RunningServer } from "./process/start";

// stdout is a contract that tests parse: the demo key line (first start only), the running line, then request lines.
function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(): Promise<void> {
  const parsed = parseServerArgs(process.argv.slice(2));
  if (parsed.kind === "help") {
    process.stdout.write(SERVER_USAGE);
    return;
  }
  if (parsed.kind === "error") {
    note(`keyscope: ${parsed.message} (see --help)`);
    process.exit(2);
  }
  const { config } = parsed;
  // Loaded only now (DuckDB, SQLite, Hono): --help and a mistyped flag answer at once.
  const { startKeyscope, demoNotice } = await import("./process/start");

  // Installed before the (possibly long) build, so a signal or a vanished parent stops the process at any point.
  let running: RunningServer | undefined = undefined;
  installShutdown(async () => {
    await running?.close();
  }, note);

  if (config.build && dashboardIsStale(REPO_ROOT, config.distDir)) {
    note("Building the dashboard (it is missing or older than its sources)…");
    const startedAt = performance.now();
    await buildDashboard(REPO_ROOT, config.distDir);
    note(`Built the dashboard in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  }

  running = await startKeyscope(config);
  const lines = [...demoNotice(running), `Keyscope is running at ${running.url}`];
  if (config.upstream !== undefined) lines.push(`Proxying /v2/* to ${displayUrl(config.upstream)}`);
  // One write, so whoever waits for the running line has the lines around it too.
  say(lines.join("\n"));
}

main().catch((error: unknown) => {
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  note(code === "EADDRINUSE" ? `keyscope: the address is already in use (${message})` : `keyscope: ${message}`);
  process.exit(1);
});
