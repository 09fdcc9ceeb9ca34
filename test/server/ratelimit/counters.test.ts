import { afterAll, beforeAll, expect, test } from "vitest";
import { createRootKey } from "../../../server/db/root-keys";
import { callApi } from "../http";
import { startInProcess, type InProcessServer } from "../in-process";
import { limitOf, ratelimitHarness, type RatelimitHarness } from "../real-routes/ratelimit-harness";

/**
 * The counters on disk that a restarted server's limits begin from: one row per identifier and window, charged only by
 * what passed, and deleted once neither the current window nor the previous one, by the limits that come after.
 */

const MINUTE = 60_000;
/** A window's start, far from the wall clock's so that nothing else in the file shares its windows. */
const START = 1_000_000 * MINUTE;

let now = START;
let server: InProcessServer;
let rl: RatelimitHarness;
let key: string;

beforeAll(() => {
  server = startInProcess({ clock: () => now });
  rl = ratelimitHarness(server);
  key = createRootKey(server.admin.db, {
    workspaceId: server.admin.workspaceId,
    name: "counters",
    permissions: ["ratelimit.*.limit", "ratelimit.*.create_namespace"],
  }).secret;
});

afterAll(() => server.close());

async function limit(namespace: string, identifier: string, max: number) {
  const body = JSON.stringify({ namespace, identifier, limit: max, duration: MINUTE });
  return limitOf(await callApi(server, { path: "/v2/ratelimit.limit", key, body }));
}

function counters(namespaceId: string): { identifier: string; sequence: number; spent: number }[] {
  return server.admin.db
    .prepare<[string], { identifier: string; sequence: number; spent: number }>(
      "SELECT identifier, sequence, spent FROM ratelimit_counters WHERE namespace_id = ? ORDER BY sequence, identifier",
    )
    .all(namespaceId);
}

test("a window's counter holds what passed in it, and is deleted by a limit once neither current nor previous", async () => {
  const ns = rl.namespace();
  const window = START / MINUTE;
  now = START;
  for (let index = 0; index < 3; index += 1) await limit(ns.name, "early", 2);
  expect(counters(ns.id)).toEqual([{ identifier: "early", sequence: window, spent: 2 }]);

  // The next window: the first one is its previous, still counted, so still kept.
  now = START + MINUTE + 1_000;
  expect(await limit(ns.name, "early", 2)).toMatchObject({ success: true, remaining: 0 });
  expect(counters(ns.id)).toEqual([
    { identifier: "early", sequence: window, spent: 2 },
    { identifier: "early", sequence: window + 1, spent: 1 },
  ]);

  // Two windows on, the first counts for nothing: the next limit deletes it, whichever identifier it limits.
  now = START + 2 * MINUTE + 1_000;
  await limit(ns.name, "late", 2);
  expect(counters(ns.id)).toEqual([
    { identifier: "early", sequence: window + 1, spent: 1 },
    { identifier: "late", sequence: window + 2, spent: 1 },
  ]);
});
