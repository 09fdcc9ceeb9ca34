import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `<script> ...args` with tsx (`node --import tsx`, one process) from the repository root, whatever the exit code. */
export function runTsx(script: string, args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const options = { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 };
    const child = execFile(process.execPath, ["--import", "tsx", script, ...args], options, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : child.exitCode, stdout, stderr });
    });
  });
}
