import { afterAll, beforeAll, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REAL_SERVICE_LIST_KEYS_PATH } from "../../src/lib/contract";
import { findApi } from "../../server/db/apis";
import { REPO_ROOT } from "../../server/process/paths";
import { runAdminInProcess } from "../support/admin-in-process";
import { asKeyList, callApi } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";

/** The README's commands do what it says they do: run as written, on a server's data directory. */

let server: InProcessServer;

beforeAll(() => {
  server = startInProcess();
});

afterAll(() => server.close());

/** The words a POSIX shell makes of a command line of plain words and single-quoted ones. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
}

/** The command in backticks in the README's bullet that starts with `heading`. */
function readmeCommand(heading: string): string {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const bullet = readme.slice(readme.indexOf(`- **${heading}**`));
  const command = /`(npm run admin -- [^`]+)`/.exec(bullet.slice(0, bullet.indexOf("\n- ")))?.[1];
  if (command === undefined) throw new Error(`no admin command under "${heading}"`);
  return command;
}

test("'I lost the demo root key' makes a root key that lists keys, as the keys page asks for them", async () => {
  const words = shellWords(readmeCommand("I lost the demo root key"));
  expect(words.slice(0, 4)).toEqual(["npm", "run", "admin", "--"]);
  const run = runAdminInProcess([...words.slice(4), "--data-dir", server.dataDir]);
  expect(run.code, run.stderr).toBe(0);
  const rootKey = run.stdout.trim();

  expect(asKeyList(await callApi(server, { key: rootKey, body: {} })).data.keys.length).toBeGreaterThan(0);
  const apiId = findApi(server.admin.db, server.admin.workspaceId)?.id;
  const answer = await callApi(server, { key: rootKey, path: REAL_SERVICE_LIST_KEYS_PATH, body: { apiId } });
  expect(answer.status, answer.text).toBe(200);
});
