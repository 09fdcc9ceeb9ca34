import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect, test } from "vitest";
import { DATABASE_FILE_NAME } from "../../../server/db/open";
import { startServer, type StartedServer } from "../../support/server-process";

/**
 * ratelimit.limit through a real server process: exact under a thousand concurrent requests, and after kill -9 in the
 * middle of a burst, a restart goes on from exactly what was committed, every override it answered is there, and
 * analytics counts every decision committed, once.
 * Deterministic: it counts the answers received and reads what is on disk, never the clock's luck.
 */

/** Two processes, a burst and a catch-up: a bound against a hang, not a measure, roomy for a machine busy with others. */
const SLOW_PROCESS_MS = 120_000;

const started: StartedServer[] = [];

afterEach(async () => {
  for (const server of started.splice(0)) await server.stop("SIGKILL");
});

async function start(dataDir?: string): Promise<StartedServer> {
  const server = await startServer(dataDir === undefined ? {} : { dataDir });
  started.push(server);
  return server;
}

interface Answer {
  status: number;
  json: unknown;
}

async function post(server: StartedServer, key: string, operation: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}/v2/ratelimit.${operation}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const succeeded = (answer: Answer) =>
  answer.status === 200 && (answer.json as { data?: { success?: boolean } }).data?.success === true;

function rootKey(server: StartedServer): Promise<string> {
  const permissions = ["limit", "create_namespace", "set_override", "read_override", "read_analytics"].map(
    (action) => `ratelimit.*.${action}`,
  );
  return server.admin(["root-key", "create", "--name", "load", "--permissions", permissions.join(",")]);
}

/** A window (of at most 30 days, the longest) with at least 15 minutes left now: the test cannot run into its end. */
function windowWithRoom(now = Date.now()): number {
  for (let duration = 2_592_000_000; ; duration -= 3_600_000) {
    if (duration - (now % duration) > 15 * 60_000) return duration;
  }
}

test(
  "1,000 concurrent limits of one identifier let exactly the limit through",
  { timeout: SLOW_PROCESS_MS },
  async () => {
    const server = await start();
    const key = await rootKey(server);
    const body = { namespace: "load", identifier: "hot", limit: 250, duration: windowWithRoom() };
    const answers = await Promise.all(Array.from({ length: 1000 }, () => post(server, key, "limit", body)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter(succeeded)).toHaveLength(250);
  },
);

test(
  "kill -9 in a burst: the restarted server goes on from exactly what was committed, every override answered is there, and analytics counts each decision once",
  { timeout: SLOW_PROCESS_MS },
  async () => {
    const first = await start();
    const { dataDir } = first;
    const key = await rootKey(first);
    const limit = 400;
    const ask = { namespace: "burst", identifier: "user", limit, duration: windowWithRoom() };
    expect((await post(first, key, "limit", { ...ask, identifier: "warm-up" })).status).toBe(200);

    let received = 0;
    const overridesAnswered = new Map<string, { overrideId: string; limit: number }>();
    let killed: Promise<number | null> | undefined;
    const client = async (index: number) => {
      for (let round = 0; ; round += 1) {
        try {
          if (round % 4 === 3) {
            const identifier = `o_${index}_${round}`;
            const answer = await post(first, key, "setOverride", { ...ask, identifier, limit: round });
            const overrideId = (answer.json as { data: { overrideId: string } }).data.overrideId;
            overridesAnswered.set(identifier, { overrideId, limit: round });
          } else if (succeeded(await post(first, key, "limit", ask))) {
            received += 1;
          }
        } catch {
          return; // The connection died with the server.
        }
        // Killed once a quarter of the limit was answered, while the other clients' requests are in flight.
        if (received >= limit / 4 && killed === undefined) killed = first.stop("SIGKILL");
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, index) => client(index)));
    await killed;
    expect(received).toBeGreaterThanOrEqual(limit / 4);

    const db = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
    let committed: number;
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const read = (sql: string) => Number(db.prepare(sql).pluck().get(ask.duration));
      committed = read(
        "SELECT coalesce(sum(spent), 0) FROM ratelimit_counters WHERE identifier = 'user' AND duration_ms = ?",
      );
      // The decisions recorded for analytics say the same: one token each passed.
      expect(read("SELECT count(*) FROM ratelimit_decisions WHERE identifier = 'user' AND passed = 1 AND ? > 0")).toBe(
        committed,
      );
    } finally {
      db.close();
    }
    // Every success answered was committed first; what was committed never passes the limit.
    expect(committed).toBeGreaterThanOrEqual(received);
    expect(committed).toBeLessThanOrEqual(limit);

    const second = await start(dataDir);
    let after = 0;
    for (;;) {
      const answer = await post(second, key, "limit", ask);
      if (!succeeded(answer)) break;
      after += 1;
    }
    // The restarted server's counter began at what was committed: not a token more or less.
    expect(committed + after).toBe(limit);

    for (const [identifier, override] of overridesAnswered) {
      const got = await post(second, key, "getOverride", { namespace: "burst", identifier });
      expect(got.json).toMatchObject({ data: { overrideId: override.overrideId, identifier, limit: override.limit } });
    }
    const listed = await post(second, key, "listOverrides", { namespace: "burst", limit: 100 });
    const ids = (listed.json as { data: { overrideId: string }[] }).data.map((entry) => entry.overrideId);
    for (const override of overridesAnswered.values()) expect(ids).toContain(override.overrideId);

    // The analytics store, killed wherever its copy was, holds every decision committed before and after: once each.
    const recorded = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
    const decisions = Number(
      recorded.prepare("SELECT count(*) FROM ratelimit_decisions WHERE identifier = 'user'").pluck().get(),
    );
    recorded.close();
    const analytics = await fetch(`${second.url}/v2/analytics.getRatelimits`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        query: "SELECT countIf(passed) AS passed, count(*) AS total FROM ratelimits_v1 WHERE identifier = 'user'",
      }),
    });
    expect(await analytics.json()).toMatchObject({ data: [{ passed: limit, total: decisions }] });
  },
);
