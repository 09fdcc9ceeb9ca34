import { runAdmin } from "../../server/admin/cli";

/** What one run of the admin command line printed, and its exit code. */
export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The admin command line (`npm run admin -- …`) run in this process: the same code on the same database file
 * through its own connection, without starting node and tsx again (about half a second of CPU a run). Tests of
 * the program itself (exit codes, streams, another user, a process beside the server) start it as a process.
 */
export function runAdminInProcess(args: readonly string[]): AdminRun {
  let stdout = "";
  let stderr = "";
  const code = runAdmin(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), stderrIsTTY: false });
  return { code, stdout, stderr };
}
