import { execFile, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadResult, LoadSpec } from "../load/autocannon-worker";
import type { BareRoutes } from "../load/bare-server";
import { BENCH_DIR, REPO_ROOT, workFile } from "./paths";

/** `node --import tsx <script>`: one process per child (the tsx binary would start two). */
function tsxArgs(script: string, args: string[]): string[] {
  return ["--import", "tsx", join(BENCH_DIR, script), ...args];
}

/** Runs one autocannon measurement in a child process and resolves what it measured. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  // Through a file: thousands of distinct bodies do not fit in an argument.
  const specPath = workFile("load-spec.json");
  writeFileSync(specPath, JSON.stringify(spec));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      tsxArgs("load/autocannon-worker.ts", [specPath]),
      { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`autocannon worker failed: ${stderr.trim() || error.message}`));
        else resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as LoadResult);
      },
    );
  });
}

export interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the bare node:http floor server in a child process, answering `routes`. */
export function startBareServer(routes: BareRoutes): Promise<BareServer> {
  const routesPath = workFile("bare-routes.json");
  writeFileSync(routesPath, JSON.stringify(routes));
  const child = spawn(process.execPath, tsxArgs("load/bare-server.ts", [routesPath]), {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      const port = /^listening (\d+)$/m.exec(output)?.[1];
      if (port === undefined) return;
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: child.pid ?? 0,
        stop: async () => {
          child.kill("SIGTERM");
          await exited;
        },
      });
    });
    child.once("exit", (code) => reject(new Error(`the bare server exited with code ${code} before listening`)));
  });
}
