/**
 * Rows of `analytics.getVerifications`, parsed (never cast) into typed values. ClickHouse writes 64-bit
 * integers as JSON strings and DateTime as `YYYY-MM-DD hh:mm:ss` (UTC); the reference engine may write
 * numbers and ISO strings: both read the same here. A row that does not fit makes the whole answer
 * `WrongShapeError`, so the page shows why instead of a chart of half the numbers.
 */
import * as v from "valibot";
import { ANALYTICS_OUTCOMES, type AnalyticsOutcome } from "./verification-outcomes";

/** An analytics answer whose rows are not what the query asked for. */
export class WrongShapeError extends Error {
  override readonly name = "WrongShapeError";
}

/** A count: a non-negative integer, or its decimal text. */
const Count = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,16}$/), v.transform(Number))]),
  v.number(),
  v.integer(),
  v.minValue(0),
);

/** An instant as ms since the epoch: Int64 ms (number or text), DateTime text, Date text, or ISO text. */
const Instant = v.pipe(v.union([v.number(), v.string()]), v.transform(toEpochMs), v.number(), v.finite());

const Outcome = v.picklist(ANALYTICS_OUTCOMES, "not an outcome");

const Text = v.pipe(v.string(), v.maxLength(10_000));

/** `2026-11-23 10:00:00`, `2026-11-23`, ISO text with or without a zone (UTC when none), or a number of ms. */
export function toEpochMs(value: number | string): number {
  if (typeof value === "number") return value;
  const text = value.trim();
  if (/^-?\d{1,16}$/.test(text)) return Number(text);
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
    text,
  );
  if (!match) return Number.NaN;
  const [, date, time = "00:00:00", zone = "Z"] = match;
  // `+00` and `+0000` (as DuckDB and others write zones) become the `+00:00` that Date.parse reads.
  const offset = /^[+-]/.test(zone) ? `${zone.slice(0, 3)}:${zone.slice(3).replace(":", "") || "00"}` : "Z";
  return Date.parse(`${date}T${time}${offset}`);
}

function parseRows<T extends v.GenericSchema>(schema: T, rows: readonly unknown[]): v.InferOutput<T>[] {
  return rows.map((row, index) => {
    const parsed = v.safeParse(schema, row);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = issue.path?.map((item) => String(item.key)).join(".") ?? "";
      throw new WrongShapeError(`Row ${index + 1}${field === "" ? "" : `, field “${field}”`}: ${issue.message}.`);
    }
    return parsed.output;
  });
}

const UsageRow = v.object({ time: Instant, outcome: Outcome, total: Count });
export type UsageRow = v.InferOutput<typeof UsageRow>;

export function parseUsageRows(rows: readonly unknown[]): UsageRow[] {
  return parseRows(v.looseObject(UsageRow.entries), rows);
}

const VerificationRow = v.looseObject({
  request_id: Text,
  time: Instant,
  outcome: Outcome,
  region: v.fallback(Text, ""),
  tags: v.fallback(v.array(Text), []),
});

export interface Verification {
  requestId: string;
  time: number;
  outcome: AnalyticsOutcome;
  region: string;
  tags: string[];
  /** Present when the query selected it. */
  keyId?: string;
}

export function parseVerificationRows(rows: readonly unknown[]): Verification[] {
  return parseRows(v.looseObject({ ...VerificationRow.entries, key_id: v.optional(Text) }), rows).map((row) => ({
    requestId: row.request_id,
    time: row.time,
    outcome: row.outcome,
    region: row.region,
    tags: row.tags,
    ...(row.key_id !== undefined && { keyId: row.key_id }),
  }));
}
