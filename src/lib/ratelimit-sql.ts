import { checkedInstant, cutRange, GRAIN_START, partTime, type Grain, type RangePart } from "./analytics-grain";
import { sqlString } from "./analytics-sql";

/**
 * A rate-limit namespace's history (docs/dashboard.md#rate-limits), as ClickHouse SQL over the public decision tables
 * that `analytics.getRatelimits` runs on the real service and the reference server alike: `ratelimits_v1` (one row a
 * decision, `time` in ms, `passed` a Bool) and `ratelimits_per_{minute,hour,day}_v1` (`passed` and `total` summed per
 * identifier and bucket). A namespace is named by its id there (`namespace_id`), never its name. Every query bounds
 * `time` from below by the range's start, reads the aggregated table where it answers the range exactly
 * (./analytics-grain.ts) and calls only the documented functions.
 */

/** What the history reads: one namespace, over [from, to] (ms, both included). */
export interface NamespaceRange {
  namespaceId: string;
  from: number;
  to: number;
}

/** A namespace id as the services make them (`rlns_…`); nothing else is put in a query as one. */
const NAMESPACE_ID = /^[A-Za-z0-9_]{1,128}$/;

export function isNamespaceId(value: string): boolean {
  return value.startsWith("rlns_") && NAMESPACE_ID.test(value);
}

function namespaceIs(namespaceId: string): string {
  if (!NAMESPACE_ID.test(namespaceId)) throw new Error("not a namespace id");
  return `namespace_id = '${namespaceId}'`;
}

const GRAIN_TABLE: Record<Grain, string> = {
  minute: "ratelimits_per_minute_v1",
  hour: "ratelimits_per_hour_v1",
  day: "ratelimits_per_day_v1",
};

function partTable(part: RangePart): string {
  return part.source === "raw" ? "ratelimits_v1" : GRAIN_TABLE[part.source];
}

/** Decisions that passed, and all of them, in a part: a row each, or the aggregated sums. */
function partCounts(part: RangePart): { passed: string; total: string } {
  return part.source === "raw"
    ? { passed: "countIf(passed)", total: "count(*)" }
    : { passed: "sum(passed)", total: "sum(total)" };
}

function where(...parts: readonly string[]): string {
  return parts.join(" AND ");
}

/**
 * Decisions per bucket of `grain`: rows `{bucket, passed_count, total_count}` (a bucket possibly in several rows, one
 * per part: they add up); blocked is the difference. No alias is a column's name: ClickHouse would read it inside the
 * other expressions.
 */
export function ratelimitChartQuery(range: NamespaceRange, grain: Grain): string {
  return cutRange(range, grain)
    .map((part) => {
      const bucket = part.source === "raw" ? `${GRAIN_START[grain]}(fromUnixTimestamp64Milli(time))` : "time";
      const { passed, total } = partCounts(part);
      return `SELECT ${bucket} AS bucket, ${passed} AS passed_count, ${total} AS total_count FROM ${partTable(part)} WHERE ${where(namespaceIs(range.namespaceId), partTime(part))} GROUP BY bucket`;
    })
    .join(" UNION ALL ");
}

/** How many identifiers the history names as blocked most. */
export const TOP_BLOCKED = 10;

/**
 * The identifiers with the most blocked decisions in the range, most first (ties by identifier), with what they passed
 * and, from the latest decision of each in the range, the limit it was decided with and the override that applied then
 * (`last_override_id`, empty when none): rows `{identifier, blocked, passed, last_time, last_limit, last_override_id}`.
 * One query: the counts from the aggregated table where it answers, the latest decision from single ones.
 */
export function ratelimitTopBlockedQuery(range: NamespaceRange, grain: Grain): string {
  const namespace = namespaceIs(range.namespaceId);
  const decided = cutRange(range, grain)
    .map((part) => {
      const { passed, total } = partCounts(part);
      return `SELECT identifier, ${total} - ${passed} AS blocked_count, ${passed} AS passed_count FROM ${partTable(part)} WHERE ${where(namespace, partTime(part))} GROUP BY identifier`;
    })
    .join(" UNION ALL ");
  const from = checkedInstant(range.from);
  const to = checkedInstant(range.to);
  const mostBlocked = `SELECT identifier, sum(blocked_count) AS blocked, sum(passed_count) AS passed FROM decided GROUP BY identifier HAVING sum(blocked_count) > 0 ORDER BY blocked DESC, identifier LIMIT ${TOP_BLOCKED}`;
  const latest = `SELECT identifier, max(time) AS last_time FROM ratelimits_v1 WHERE ${where(namespace, `time >= ${from}`, `time <= ${to}`, "identifier IN (SELECT identifier FROM most_blocked)")} GROUP BY identifier`;
  // `limit` is a keyword in both dialects: read qualified (`d.limit`), which both take as a column.
  return (
    `WITH decided AS (${decided}), most_blocked AS (${mostBlocked}), latest AS (${latest}) ` +
    `SELECT m.identifier AS identifier, m.blocked AS blocked, m.passed AS passed, latest.last_time AS last_time, ` +
    `max(d.limit) AS last_limit, max(d.override_id) AS last_override_id ` +
    `FROM most_blocked AS m JOIN latest ON latest.identifier = m.identifier ` +
    `JOIN ratelimits_v1 AS d ON d.identifier = latest.identifier AND d.time = latest.last_time ` +
    `WHERE ${where(`d.${namespace}`, `d.time >= ${from}`)} ` +
    `GROUP BY m.identifier, m.blocked, m.passed, latest.last_time ORDER BY blocked DESC, identifier`
  );
}

/**
 * The namespace whose decisions applied one of `overrideIds` since `since` (ms): rows `{namespace_id}`, one at most.
 * No operation tells a namespace's id from its name, and the history reads ids; an override's id, which listOverrides
 * does tell, is recorded with every decision it made.
 */
export function namespaceOfOverridesQuery(overrideIds: readonly string[], since: number): string {
  if (overrideIds.length === 0) throw new Error("no override ids");
  const literals = overrideIds.map((id) => {
    const checked = sqlString(id, "An override id");
    if (!checked.ok) throw new Error(checked.reason);
    return checked.literal;
  });
  return `SELECT namespace_id FROM ratelimits_v1 WHERE ${where(`time >= ${checkedInstant(since)}`, `override_id IN (${literals.join(", ")})`)} LIMIT 1`;
}
