import { runAdmin } from "./admin/cli";

// `npm run admin -- …`: the command line in server/admin/cli.ts, on this process's streams.
process.exitCode = runAdmin(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY,
});
