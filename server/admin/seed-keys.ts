import type { Database } from "better-sqlite3";
import { keyInserter } from "../db/keys";
import { generatedKeyName } from "../keys/key-names";
import { newApiKeySecret } from "../keys/secrets";
import { withBulkCache } from "./bulk";

const DAY_MS = 24 * 60 * 60 * 1000;
const PROGRESS_EVERY = 2_000;

export interface SeedOptions {
  workspaceId: string;
  apiId: string;
  count: number;
  onProgress?: (done: number, total: number) => void;
  now?: number;
}

/**
 * Inserts `count` keys with generated names in one transaction through one prepared statement.
 * Most are live and enabled; some are test keys, disabled, or expire within a year.
 */
export function seedKeys(db: Database, options: SeedOptions): number {
  const { workspaceId, apiId, count, onProgress, now = Date.now() } = options;
  const insert = keyInserter(db);
  withBulkCache(db, () =>
    db
      .transaction(() => {
        for (let index = 0; index < count; index += 1) {
          const roll = Math.random();
          insert({
            workspaceId,
            apiId,
            name: generatedKeyName(),
            secret: newApiKeySecret(roll < 0.8 ? "live" : "test"),
            enabled: roll < 0.9,
            createdAt: now - Math.floor(Math.random() * 365 * DAY_MS),
            ...(roll > 0.95 && { expires: now + Math.floor((Math.random() - 0.3) * 365 * DAY_MS) }),
          });
          if ((index + 1) % PROGRESS_EVERY === 0) onProgress?.(index + 1, count);
        }
      })
      .immediate(),
  );
  onProgress?.(count, count);
  return count;
}
