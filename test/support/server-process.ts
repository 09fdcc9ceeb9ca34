import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runAdminInProcess } from "./admin-in-process";

/**
 * Starts the reference server as a real process, for the server tests and the e2e tests alike.
 * Plain node: no test runner is imported here.
 */

export interface StartedServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The demo root key from the first-start line, when the server printed one. */
  rootKey: string | undefined;
  dataDir: string;
  /** The server's own process (node itself, no wrapper): for a signal or its memory. */
  pid: number;
  /** Everything the server printed so far, stdout and stderr. */
  output(): string;
  /** Runs the admin command line (`npm run admin -- ...args --data-dir <dataDir>`) in this process; resolves its trimmed stdout, rejects with its stderr. */
  admin(args: string[]): Promise<string>;
  /** Sends the signal (SIGTERM by default) and resolves the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartServerOptions {
  dataDir?: string;
  args?: string[];
  env?: Record<string, string>;
}

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const STARTUP_TIMEOUT_MS = 30_000;
const RUNNING_LINE = /^Keyscope is running at (\S+)\n/m;
const ROOT_KEY_LINE = /^Demo root key \(shown once, store it now\): (\S+)\n/m;

export function startServer(options: StartServerOptions = {}): Promise<StartedServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "keyscope-test-"));
  // `node --import tsx`: one process, so a test's signal reaches the server itself. The tsx binary relays
  // signals to a child and, when the child's answer is slow (a busy machine), exits 130 on its own.
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "server/main.ts",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--no-build",
      "--data-dir",
      dataDir,
      ...(options.args ?? []),
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, KEYSCOPE_PARENT_PID: String(process.pid), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );

  let output = "";
  let stdout = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr.on("data", (chunk: string) => {
    output += chunk;
  });

  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

  // In this process, through its own connection, as the CLI would from its own: no node and tsx to start.
  const admin = (args: string[]): Promise<string> => {
    const run = runAdminInProcess([...args, "--data-dir", dataDir]);
    if (run.code !== 0)
      return Promise.reject(new Error(run.stderr.trim() || `admin ${args.join(" ")} exited with ${run.code}`));
    return Promise.resolve(run.stdout.trim());
  };

  const stop = async (signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };

  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      cleanup();
      // SIGTERM, so the server closes its databases, rather than SIGKILL.
      child.kill("SIGTERM");
      reject(new Error(`${reason}\n--- server output ---\n${output}`));
    };
    const timer = setTimeout(
      () => fail(`the server did not start within ${STARTUP_TIMEOUT_MS / 1000} s`),
      STARTUP_TIMEOUT_MS,
    );
    const onData = () => {
      const running = RUNNING_LINE.exec(stdout);
      if (running?.[1] === undefined || child.pid === undefined) return;
      cleanup();
      resolve({
        url: running[1],
        pid: child.pid,
        rootKey: ROOT_KEY_LINE.exec(stdout)?.[1],
        dataDir,
        output: () => output,
        admin,
        stop,
      });
    };
    const onExit = (code: number | null) => fail(`the server exited with code ${code} before it was running`);
    const onError = (error: Error) => fail(`the server could not be started: ${error.message}`);
    function cleanup() {
      clearTimeout(timer);
      child.stdout.off("data", onData);
      child.off("exit", onExit);
      child.off("error", onError);
    }
    child.stdout.on("data", onData);
    child.once("exit", onExit);
    child.once("error", onError);
  });
}
