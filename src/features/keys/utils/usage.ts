import * as v from "valibot";
import { MAX_ANALYTICS_QUERY_LENGTH } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import type { UsageTotals } from "./key-status";

/**
 * A key's verifications over the last 36 hours, by hour and outcome, for the usage bars: the analytics query
 * (ClickHouse SQL, the text the reference server runs too) and the reading of its rows. Pure.
 */
export const USAGE_WINDOW_HOURS = 36;
const HOUR_MS = 60 * 60 * 1000;

/** The ids the API gives are base58 after a prefix; anything else never goes into SQL text. */
const SAFE_ID = /^[A-Za-z0-9_]{1,128}$/;

export function usageQueryIds(keyIds: readonly string[]): string[] {
  return [...new Set(keyIds.filter((id) => SAFE_ID.test(id)))].sort();
}

/** One query for a set of keys: per key, hour and outcome, the verifications of the window. */
export function usageSql(keyIds: readonly string[]): string {
  const ids = usageQueryIds(keyIds);
  if (ids.length === 0) throw new Error("usageSql needs at least one key id");
  return [
    "SELECT key_id, time, outcome, SUM(count) AS count",
    "FROM key_verifications_per_hour_v1",
    `WHERE time >= now() - INTERVAL ${USAGE_WINDOW_HOURS} HOUR`,
    `AND key_id IN (${ids.map((id) => `'${id}'`).join(", ")})`,
    "GROUP BY key_id, time, outcome",
  ].join(" ");
}

export interface HourUsage {
  valid: number;
  refused: number;
}

export interface KeyUsage {
  /** Oldest first; the last is the current hour. */
  hours: HourUsage[];
  totals: UsageTotals;
}

/** ClickHouse sends 64-bit counts as strings in JSON; DuckDB as numbers. */
const Count = v.union([
  v.pipe(v.number(), v.finite()),
  v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/), v.transform(Number)),
]);
const UsageRow = v.object({
  key_id: v.string(),
  time: v.union([v.string(), v.pipe(v.number(), v.finite())]),
  outcome: v.string(),
  count: Count,
});

export class UsageShapeError extends Error {
  override name = "UsageShapeError";
}

/** `2026-11-23 18:00:00` (ClickHouse's DateTime, UTC), an ISO string, or seconds/milliseconds since 1970. */
export function parseHour(time: string | number): number | null {
  if (typeof time === "number") return time < 1e11 ? time * 1000 : time;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(time) ? `${time.replace(" ", "T")}Z` : time;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

function emptyUsage(): KeyUsage {
  return {
    hours: Array.from({ length: USAGE_WINDOW_HOURS }, () => ({ valid: 0, refused: 0 })),
    totals: { valid: 0, rateLimited: 0, refused: 0 },
  };
}

/**
 * The rows as usage per key; every asked id gets an entry (zeros when it had no verification). A row of the
 * wrong shape fails the whole answer: a half-read answer would show wrong bars.
 */
export function usageFromRows(rows: readonly unknown[], keyIds: readonly string[], now: number): Map<string, KeyUsage> {
  const usage = new Map<string, KeyUsage>(usageQueryIds(keyIds).map((id) => [id, emptyUsage()]));
  const currentHour = Math.floor(now / HOUR_MS);
  for (const row of rows) {
    const parsed = v.safeParse(UsageRow, row);
    if (!parsed.success)
      throw new UsageShapeError(
        `an analytics row is not {key_id, time, outcome, count}: ${v.summarize(parsed.issues)}`,
      );
    const { key_id: keyId, time, outcome, count } = parsed.output;
    const entry = usage.get(keyId);
    const hour = parseHour(time);
    if (entry === undefined || hour === null) continue;
    const index = USAGE_WINDOW_HOURS - 1 - (currentHour - Math.floor(hour / HOUR_MS));
    const bucket = entry.hours[index];
    if (outcome === "VALID") {
      entry.totals.valid += count;
      if (bucket) bucket.valid += count;
    } else {
      entry.totals.refused += count;
      if (outcome === "RATE_LIMITED") entry.totals.rateLimited += count;
      if (bucket) bucket.refused += count;
    }
  }
  return usage;
}

/** "36 h: 120 valid, 8 refused" — the bar's text for screen readers and the tooltip. */
export function usageText(usage: KeyUsage): string {
  const { valid, refused } = usage.totals;
  if (valid + refused === 0) return `${USAGE_WINDOW_HOURS} h: no verifications`;
  return `${USAGE_WINDOW_HOURS} h: ${formatCount(valid)} valid, ${formatCount(refused)} refused`;
}

/** A chunk's SQL stays well under what the analytics API takes (docs/api.md#analytics): three quarters of it. */
export const TOTALS_SQL_MAX_LENGTH = (MAX_ANALYTICS_QUERY_LENGTH * 3) / 4;

function totalsSql(quotedIds: string): string {
  return [
    "SELECT key_id, SUM(count) AS total",
    "FROM key_verifications_per_hour_v1",
    `WHERE time >= now() - INTERVAL ${USAGE_WINDOW_HOURS} HOUR`,
    `AND key_id IN (${quotedIds})`,
    "GROUP BY key_id",
  ].join(" ");
}

/**
 * The window's verifications per key, for sorting every loaded key by use: one query per chunk of ids, in
 * the order given, each chunk as many ids as the length limit allows. Appending ids (a page loaded) leaves
 * every full chunk before them as it was, so only the last chunks are asked again.
 */
export function usageTotalsChunks(keyIds: readonly string[], maxLength = TOTALS_SQL_MAX_LENGTH): string[][] {
  const room = maxLength - totalsSql("").length;
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let length = 0;
  const seen = new Set<string>();
  for (const id of keyIds) {
    if (!SAFE_ID.test(id) || seen.has(id)) continue;
    seen.add(id);
    // `'id', ` per id.
    const cost = id.length + 4;
    if (chunk.length > 0 && length + cost > room) {
      chunks.push(chunk);
      chunk = [];
      length = 0;
    }
    chunk.push(id);
    length += cost;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** One chunk's query: rows `{key_id, total}` for the keys with verifications in the window. */
export function usageTotalsSql(keyIds: readonly string[]): string {
  const ids = keyIds.filter((id) => SAFE_ID.test(id));
  if (ids.length === 0) throw new Error("usageTotalsSql needs at least one key id");
  return totalsSql(ids.map((id) => `'${id}'`).join(", "));
}

const TotalRow = v.object({ key_id: v.string(), total: Count });

/** Every asked id gets a total (0 without a row); a row of the wrong shape fails the whole answer. */
export function usageTotalsFromRows(rows: readonly unknown[], keyIds: readonly string[]): Map<string, number> {
  const totals = new Map<string, number>(keyIds.map((id) => [id, 0]));
  for (const row of rows) {
    const parsed = v.safeParse(TotalRow, row);
    if (!parsed.success)
      throw new UsageShapeError(`an analytics row is not {key_id, total}: ${v.summarize(parsed.issues)}`);
    if (totals.has(parsed.output.key_id)) totals.set(parsed.output.key_id, parsed.output.total);
  }
  return totals;
}
