import type { Database } from "better-sqlite3";
import type { KeyStore } from "../db/key-store";
import { newId } from "../db/ids";
import { VERIFY_ANY_API_KEYS } from "../auth/permissions";
import { createKeyRateLimiter, type KeyRateLimiter } from "./key-rate-limiter";
import { parsePermissionQuery, type PermissionQuery } from "./permission-query";
import { verifyKey, type VerifyCode, type VerifyRequest } from "./verify-key";

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Verifications per outer transaction: each keeps its own (nested) transaction, the batch shares one commit. Small
 * enough (about 0.1 s) that a running server's own verifications never wait long for the write lock.
 */
const BATCH = 2_000;
const PROGRESS_EVERY = 1_000;

export const TRAFFIC_TAGS = [
  ["path=/api/users", "method=GET"],
  ["path=/api/users", "method=POST"],
  ["path=/api/orders", "method=GET"],
  ["path=/api/orders", "method=POST"],
  ["path=/api/invoices", "method=GET"],
  ["path=/api/search", "method=GET"],
] as const;
export const TRAFFIC_REGIONS = ["us-east-1", "eu-west-1", "ap-southeast-1"] as const;
const MISSING_PERMISSION_QUERY = parsePermissionQuery("admin.write");

/** One verification to replay: a key's hash at a moment, with what the caller asked. */
export interface ReplayedVerification extends VerifyRequest {
  time: number;
  region: string;
}

/** Runs verifications through `keys.verifyKey`'s own code at past moments, as the workspace's own caller. */
export interface TrafficReplayer {
  verify(call: ReplayedVerification): VerifyCode | undefined;
  /** Runs `work` with its verifications committed together (much faster than one commit each). */
  batch(work: () => void): void;
}

export function trafficReplayer(
  store: KeyStore,
  workspaceId: string,
  {
    limiter = createKeyRateLimiter(),
    callerPermissions = [VERIFY_ANY_API_KEYS],
  }: { limiter?: KeyRateLimiter; callerPermissions?: readonly string[] } = {},
): TrafficReplayer {
  const caller = { workspaceId, permissions: JSON.stringify(callerPermissions) };
  return {
    verify(call) {
      const result = verifyKey(call, {
        store,
        limiter,
        caller,
        requestId: newId("req"),
        now: call.time,
        region: call.region,
      });
      return result.kind === "verified" ? result.data.code : undefined;
    },
    batch(work) {
      store.transaction(work);
    },
  };
}

export interface TrafficOptions {
  workspaceId: string;
  apiId?: string;
  days: number;
  count: number;
  now?: number;
  random?: () => number;
  onProgress?: (done: number, total: number) => void;
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/**
 * Records `count` verifications spread over the last `days` days, in time order, through the verify code:
 * keys drawn with a long tail (a few keys get most traffic), tags and regions mixed, and one call in twenty
 * asking for a permission keys lack. Returns how many got each outcome.
 */
export function recordTraffic(db: Database, store: KeyStore, options: TrafficOptions): Record<string, number> {
  const { workspaceId, apiId, days, count, now = Date.now(), random = Math.random, onProgress } = options;
  const keys = db
    .prepare<[string, string | null, string | null], { hash: string; created_at: number }>(
      "SELECT hash, created_at FROM keys WHERE workspace_id = ? AND deleted_at IS NULL AND (? IS NULL OR api_id = ?) ORDER BY created_at, id",
    )
    .all(workspaceId, apiId ?? null, apiId ?? null);
  if (keys.length === 0)
    throw new Error(`no keys to verify in workspace ${workspaceId}${apiId === undefined ? "" : ` (API ${apiId})`}`);

  // Key i is drawn with weight 1/(i+1): cumulative weights, then a binary search per call.
  const cumulative: number[] = [];
  let total = 0;
  for (let index = 0; index < keys.length; index += 1) cumulative.push((total += 1 / (index + 1)));
  /** A key that existed at `time`: redrawn a few times, else the oldest key. */
  function drawKey(time: number): string {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const key = keys[drawIndex()];
      if (key !== undefined && key.created_at <= time) return key.hash;
    }
    return keys[0]?.hash ?? "";
  }
  function drawIndex(): number {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] ?? 0) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  const span = days * DAY_MS;
  const times = Float64Array.from({ length: count }, () => now - Math.floor(random() * span)).sort();
  const replayer = trafficReplayer(store, workspaceId);
  const outcomes: Record<string, number> = {};
  const missingPermission: PermissionQuery | undefined = MISSING_PERMISSION_QUERY.ok
    ? MISSING_PERMISSION_QUERY.query
    : undefined;

  for (let start = 0; start < count; start += BATCH) {
    replayer.batch(() => {
      for (let index = start; index < Math.min(count, start + BATCH); index += 1) {
        const time = times[index] ?? now;
        const call: ReplayedVerification = {
          keyHash: drawKey(time),
          time,
          region: pick(TRAFFIC_REGIONS, random),
          tags: pick(TRAFFIC_TAGS, random),
        };
        if (missingPermission !== undefined && random() < 0.05) call.permissions = missingPermission;
        const code = replayer.verify(call) ?? "NOT_FOUND";
        outcomes[code] = (outcomes[code] ?? 0) + 1;
        if ((index + 1) % PROGRESS_EVERY === 0) onProgress?.(index + 1, count);
      }
    });
  }
  onProgress?.(count, count);
  return outcomes;
}
