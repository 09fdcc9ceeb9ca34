import { checkedInstant, cutRange, GRAIN_START, partTime, type Grain, type RangePart } from "./analytics-grain";
import { isKeyId, newerThan, olderThan, sqlString, type VerificationCursor } from "./analytics-sql";

/**
 * The Logs page's analytics queries (docs/dashboard.md#logs): every verification of the workspace, filtered, as
 * ClickHouse SQL over the public tables that the real service and the reference server both run unchanged. Every
 * query names its columns, bounds `time` from below by the range's start (so it stays inside the retention the range
 * was chosen in), and calls only the documented functions. Values come in checked: an outcome by its shape, a key id
 * by `isKeyId`, text through `sqlString`; a value that is neither throws, since the page checks them first.
 */

/** What the log is narrowed to. `from` and `to` (ms) are both included. */
export interface LogFilter {
  from: number;
  to: number;
  /** None: every outcome. */
  outcomes: readonly string[];
  /** None: every key. */
  keyIds: readonly string[];
  externalId?: string | undefined;
  tag?: TagFilter | undefined;
  region?: string | undefined;
  keySpaceId?: string | undefined;
}

export interface TagFilter {
  /** `is`: a tag equal to the value; `contains`: a tag holding it (SQL LIKE: `%` and `_` in it are wildcards). */
  match: "is" | "contains";
  value: string;
}

/** An outcome as the services write them (`RATE_LIMITED`); ones newer than Keyscope's list pass too. */
const OUTCOME = /^[A-Z][A-Z_]{0,63}$/;

export function isOutcomeName(value: string): boolean {
  return OUTCOME.test(value);
}

/** Every column of `key_verifications_v1`, named (no `SELECT *`), in the order the details panel lists them. */
export const LOG_COLUMNS = [
  "request_id",
  "time",
  "outcome",
  "key_id",
  "key_space_id",
  "external_id",
  "tags",
  "region",
  "spent_credits",
  "source",
  "app_id",
] as const;

const SELECTED = LOG_COLUMNS.join(", ");
const NEWEST_FIRST = "ORDER BY time DESC, request_id DESC";

const GRAIN_TABLE: Record<Grain, string> = {
  minute: "key_verifications_per_minute_v1",
  hour: "key_verifications_per_hour_v1",
  day: "key_verifications_per_day_v1",
};
function literal(value: string, what: string): string {
  const checked = sqlString(value, what);
  if (!checked.ok) throw new Error(checked.reason);
  return checked.literal;
}

function equalsAny(column: string, literals: readonly string[]): string {
  return literals.length === 1 ? `${column} = ${literals[0]}` : `${column} IN (${literals.join(", ")})`;
}

/**
 * The filter's conditions besides time. `region` is not a column of the aggregated tables: a filter with one is read
 * from single verifications only (`rollupAnswers`).
 */
function conditions(filter: Omit<LogFilter, "from" | "to">): string[] {
  const found: string[] = [];
  if (filter.outcomes.length > 0) {
    for (const outcome of filter.outcomes) if (!isOutcomeName(outcome)) throw new Error(`not an outcome: ${outcome}`);
    found.push(
      equalsAny(
        "outcome",
        [...new Set(filter.outcomes)].map((outcome) => `'${outcome}'`),
      ),
    );
  }
  if (filter.keyIds.length > 0) {
    for (const keyId of filter.keyIds) if (!isKeyId(keyId)) throw new Error("not a key id");
    found.push(
      equalsAny(
        "key_id",
        [...new Set(filter.keyIds)].map((keyId) => `'${keyId}'`),
      ),
    );
  }
  if (filter.externalId !== undefined) found.push(`external_id = ${literal(filter.externalId, "An external id")}`);
  if (filter.keySpaceId !== undefined) found.push(`key_space_id = ${literal(filter.keySpaceId, "A key space id")}`);
  if (filter.region !== undefined) found.push(`region = ${literal(filter.region, "A region")}`);
  if (filter.tag !== undefined) {
    found.push(
      filter.tag.match === "is"
        ? `has(tags, ${literal(filter.tag.value, "A tag")})`
        : `length(arrayFilter(t -> t LIKE ${literal(`%${filter.tag.value}%`, "A tag")}, tags)) > 0`,
    );
  }
  return found;
}

function where(...parts: readonly string[]): string {
  return parts.filter((part) => part !== "").join(" AND ");
}

/** Whether the aggregated tables hold every column the filter reads. */
export function rollupAnswers(filter: Pick<LogFilter, "region">): boolean {
  return filter.region === undefined;
}

/**
 * The range cut where the aggregated table of `grain` answers it exactly (./analytics-grain.ts), single verifications
 * only when the filter reads a column the aggregated tables lack.
 */
export function rangeParts(filter: LogFilter, grain: Grain): RangePart[] {
  return cutRange(filter, grain, rollupAnswers(filter));
}

function partTable(part: RangePart): string {
  return part.source === "raw" ? "key_verifications_v1" : GRAIN_TABLE[part.source];
}

/** Verifications counted in a part: a row each, or the aggregated `count`. */
function partCount(part: RangePart): string {
  return part.source === "raw" ? "count(*)" : "sum(count)";
}

/** One page of the log, newest first: `size` rows and one more (so `cursorPage` knows whether another page exists). */
export function logPageQuery(
  filter: LogFilter,
  page: { after?: VerificationCursor | undefined; size: number },
): string {
  const time = `time >= ${checkedInstant(filter.from)} AND time <= ${checkedInstant(filter.to)}`;
  const after = page.after === undefined ? "" : olderThan(page.after);
  return `SELECT ${SELECTED} FROM key_verifications_v1 WHERE ${where(time, ...conditions(filter), after)} ${NEWEST_FIRST} LIMIT ${page.size + 1}`;
}

/**
 * The verification recorded under one request id, if it is within the filter (the range bounds the scan: a request id
 * is not in the table's order).
 */
export function logRowQuery(filter: LogFilter, requestId: string): string {
  const time = `time >= ${checkedInstant(filter.from)} AND time <= ${checkedInstant(filter.to)}`;
  return `SELECT ${SELECTED} FROM key_verifications_v1 WHERE ${where(time, `request_id = ${literal(requestId, "A request id")}`)} LIMIT 1`;
}

/**
 * What Live asks every few seconds: the newest `limit` verifications from `lookbackMs` before the newest shown on
 * (rows recorded late, with an earlier time, are found too; the page drops those it shows), and in `newer` how many of
 * all of them are newer than it, so that a burst larger than `limit` is seen as one, not silently cut.
 */
export function logLiveQuery(
  filter: Omit<LogFilter, "to">,
  newest: VerificationCursor,
  { lookbackMs, limit }: { lookbackMs: number; limit: number },
): string {
  const since = Math.max(checkedInstant(filter.from), checkedInstant(newest.time) - lookbackMs);
  const newer = `sum(if(${newerThan(newest)}, 1, 0)) OVER () AS newer`;
  return `SELECT ${SELECTED}, ${newer} FROM key_verifications_v1 WHERE ${where(`time >= ${since}`, ...conditions(filter))} ${NEWEST_FIRST} LIMIT ${limit}`;
}

/**
 * Verifications per `grain` and outcome over the range (rows `{bucket, outcome, total}`, a bucket possibly in several
 * rows, one per part), read from the aggregated table where it answers (`rangeParts`).
 */
export function logChartQuery(filter: LogFilter, grain: Grain): string {
  return rangeParts(filter, grain)
    .map((part) => {
      const bucket = part.source === "raw" ? `${GRAIN_START[grain]}(fromUnixTimestamp64Milli(time))` : "time";
      return `SELECT ${bucket} AS bucket, outcome, ${partCount(part)} AS total FROM ${partTable(part)} WHERE ${where(partTime(part), ...conditions(filter))} GROUP BY bucket, outcome`;
    })
    .join(" UNION ALL ");
}

/** How many keys and identities the overview names. */
export const TOP_REFUSED = 10;

/**
 * The keys and the identities (external ids) with the most refused verifications in the range, ten of each: rows
 * `{kind: 'key' | 'identity', id, refusals}`, most first (ties by id), from the aggregated table where it answers.
 */
export function logTopRefusedQuery(filter: LogFilter, grain: Grain): string {
  const refused = rangeParts(filter, grain)
    .map(
      (part) =>
        `SELECT key_id, external_id, ${partCount(part)} AS refused FROM ${partTable(part)} WHERE ${where(partTime(part), ...conditions(filter), "outcome != 'VALID'")} GROUP BY key_id, external_id`,
    )
    .join(" UNION ALL ");
  const top = (kind: string, column: string, only: string) =>
    `SELECT kind, id, refusals FROM (SELECT '${kind}' AS kind, ${column} AS id, sum(refused) AS refusals FROM refused_rows${only} GROUP BY id ORDER BY refusals DESC, id LIMIT ${TOP_REFUSED})`;
  return `WITH refused_rows AS (${refused}) ${top("key", "key_id", "")} UNION ALL ${top("identity", "external_id", " WHERE external_id != ''")}`;
}
