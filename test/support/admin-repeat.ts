import { runAdmin } from "../../server/admin/cli";

/**
 * `node --import tsx test/support/admin-repeat.ts <times> <admin arguments…>`: runs one admin command line that many
 * times in this process, each as `npm run admin` would (its own connection, opened and closed), as a shell loop of the
 * program does without paying a process start each time. Stops at the first failure and exits with its code.
 */
const [times = "1", ...argv] = process.argv.slice(2);
for (let run = 0; run < Number(times); run += 1) {
  const code = runAdmin(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stderrIsTTY: false,
  });
  if (code !== 0) {
    process.exitCode = code;
    break;
  }
}
