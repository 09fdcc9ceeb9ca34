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

/** An outcome as written, known to Keyscope or newer (shown as it is, never refused: the log lists every verification). */
const OutcomeName = v.pipe(v.string(), v.regex(/^[A-Z][A-Z_]{0,63}$/, "not an outcome"));

const LogRowSchema = v.looseObject({
  request_id: Text,
  time: Instant,
  outcome: OutcomeName,
  key_id: v.fallback(Text, ""),
  key_space_id: v.fallback(Text, ""),
  external_id: v.fallback(Text, ""),
  tags: v.fallback(v.array(Text), []),
  region: v.fallback(Text, ""),
  spent_credits: v.fallback(Count, 0),
  source: v.fallback(Text, ""),
  app_id: v.fallback(Text, ""),
});

/** One verification as the log shows it: every column of `key_verifications_v1` but the workspace. */
export interface LogRow {
  requestId: string;
  time: number;
  outcome: string;
  keyId: string;
  keySpaceId: string;
  externalId: string;
  tags: string[];
  region: string;
  spentCredits: number;
  source: string;
  appId: string;
}

function toLogRow(row: v.InferOutput<typeof LogRowSchema>): LogRow {
  return {
    requestId: row.request_id,
    time: row.time,
    outcome: row.outcome,
    keyId: row.key_id,
    keySpaceId: row.key_space_id,
    externalId: row.external_id,
    tags: row.tags,
    region: row.region,
    spentCredits: row.spent_credits,
    source: row.source,
    appId: row.app_id,
  };
}

/** A verification with the analytics table's column names, as an export or a copy gives it. */
export function logRowColumns(row: LogRow): Record<string, unknown> {
  return {
    request_id: row.requestId,
    time: row.time,
    outcome: row.outcome,
    key_id: row.keyId,
    key_space_id: row.keySpaceId,
    external_id: row.externalId,
    tags: row.tags,
    region: row.region,
    spent_credits: row.spentCredits,
    source: row.source,
    app_id: row.appId,
  };
}

export function parseLogRows(rows: readonly unknown[]): LogRow[] {
  return parseRows(LogRowSchema, rows).map(toLogRow);
}

/** Live's answer: the newest rows, and how many of all the rows it counted are newer than the newest shown. */
export function parseLiveRows(rows: readonly unknown[]): { rows: LogRow[]; newer: number } {
  const parsed = parseRows(v.looseObject({ ...LogRowSchema.entries, newer: Count }), rows);
  return { rows: parsed.map(toLogRow), newer: parsed[0]?.newer ?? 0 };
}

const BucketRowSchema = v.looseObject({ bucket: Instant, outcome: OutcomeName, total: Count });
export type BucketRow = v.InferOutput<typeof BucketRowSchema>;

/** Verifications per bucket and outcome (a bucket may come in several rows: they add up). */
export function parseBucketRows(rows: readonly unknown[]): BucketRow[] {
  return parseRows(BucketRowSchema, rows);
}

const TopRowSchema = v.looseObject({ kind: v.picklist(["key", "identity"]), id: Text, refusals: Count });
export type TopRow = v.InferOutput<typeof TopRowSchema>;

export function parseTopRows(rows: readonly unknown[]): TopRow[] {
  return parseRows(TopRowSchema, rows);
}

const RatelimitBucketSchema = v.looseObject({ bucket: Instant, passed_count: Count, total_count: Count });

/** A namespace's decisions per bucket: how many passed, of how many (a bucket may come in several rows: they add up). */
export interface RatelimitBucketRow {
  bucket: number;
  passed: number;
  total: number;
}

export function parseRatelimitBucketRows(rows: readonly unknown[]): RatelimitBucketRow[] {
  return parseRows(RatelimitBucketSchema, rows).map((row) => ({
    bucket: row.bucket,
    passed: row.passed_count,
    total: row.total_count,
  }));
}

const BlockedRowSchema = v.looseObject({
  identifier: Text,
  blocked: Count,
  passed: Count,
  last_time: Instant,
  last_limit: Count,
  last_override_id: v.fallback(v.nullable(Text), ""),
});

/** An identifier a namespace blocked, with its latest decision's limit and override (empty: none applied). */
export interface BlockedIdentifierRow {
  identifier: string;
  blocked: number;
  passed: number;
  lastTime: number;
  lastLimit: number;
  lastOverrideId: string;
}

export function parseBlockedRows(rows: readonly unknown[]): BlockedIdentifierRow[] {
  return parseRows(BlockedRowSchema, rows).map((row) => ({
    identifier: row.identifier,
    blocked: row.blocked,
    passed: row.passed,
    lastTime: row.last_time,
    lastLimit: row.last_limit,
    lastOverrideId: row.last_override_id ?? "",
  }));
}

/** The namespace id an override lookup found, if any. */
export function parseNamespaceIdRows(rows: readonly unknown[]): string | undefined {
  return parseRows(v.looseObject({ namespace_id: Text }), rows)[0]?.namespace_id;
}

const KeyRefusalsRowSchema = v.looseObject({ key_id: Text, outcome: Outcome, total: Count, latest: Instant });

/** Refused verifications of one key and outcome: how many, and the newest one's time. */
export interface KeyRefusals {
  keyId: string;
  outcome: AnalyticsOutcome;
  total: number;
  latest: number;
}

export function parseKeyRefusalsRows(rows: readonly unknown[]): KeyRefusals[] {
  return parseRows(KeyRefusalsRowSchema, rows).map((row) => ({
    keyId: row.key_id,
    outcome: row.outcome,
    total: row.total,
    latest: row.latest,
  }));
}
