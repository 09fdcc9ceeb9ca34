import { isObject, type JsonObject } from "./json-object";
import { FAMILIES } from "./store-schema";

/**
 * The `time` column as ClickHouse, and so the real service, treats it in comparisons. `key_verifications_v1.time` is
 * Int64 milliseconds, the aggregated tables' is a DateTime (minute, hour) or a Date (day, month). ClickHouse compares
 * a DateTime with a number as its Unix seconds and a Date as its day number; the real service's query layer
 * rewrites none of this (it only checks the lower bound against the retention). So `time >= now() - INTERVAL 7 DAY`
 * on the raw table compares milliseconds with seconds, and holds for every row; `time >= 1704067200000` on the day
 * table compares a day number with milliseconds. DuckDB refuses both comparisons; the rewrites below make them
 * answer what ClickHouse answers.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

type TimeKind = "milliseconds" | "datetime" | "date";

// The tables' time columns (every family's: a query reads one family's only); the rewrites call clickhouse_seconds and
// clickhouse_day_number (macros of dialect.ts).
const TIME_KINDS = new Map<string, TimeKind>(
  Object.values(FAMILIES).flatMap((family) => [
    [family.rawView, "milliseconds"] as const,
    ...family.rollups.map((rollup) => [rollup.view, rollup.timeType === "DATE" ? "date" : "datetime"] as const),
  ]),
);

const TIMESTAMP_FUNCTIONS = new Set([
  "now",
  "now64",
  "today",
  "todate",
  "todatetime",
  "todatetime64",
  "tostartofminute",
  "tostartofhour",
  "tostartofday",
  "tostartofweek",
  "tostartofmonth",
  "tostartofyear",
  "date_trunc",
  "fromunixtimestamp64milli",
]);
const INTERVALS: Record<string, number> = {
  to_seconds: 1000,
  to_minutes: 60_000,
  to_hours: 3_600_000,
  to_days: DAY_MS,
  to_weeks: 7 * DAY_MS,
  to_months: 30 * DAY_MS,
  to_years: 365 * DAY_MS,
};

function text(value: unknown): string {
  return typeof value === "string" ? value.toLowerCase() : "";
}

function children(node: JsonObject): unknown[] {
  return Array.isArray(node.children) ? node.children : [];
}

function isTimeColumn(node: unknown, qualifiers: ReadonlySet<string>): boolean {
  if (!isObject(node) || node.class !== "COLUMN_REF" || !Array.isArray(node.column_names)) return false;
  const names = node.column_names.map(text);
  return names.at(-1) === "time" && (names.length === 1 || (names.length === 2 && qualifiers.has(names[0] ?? "")));
}

/** Whether an expression is a DateTime in ClickHouse: a time function, or one plus or minus an interval. */
function isTimestamp(node: unknown): boolean {
  if (!isObject(node) || node.class !== "FUNCTION") return false;
  const name = text(node.function_name);
  if (TIMESTAMP_FUNCTIONS.has(name)) return true;
  return (name === "-" || name === "+") && isTimestamp(children(node)[0]);
}

function isNumber(node: unknown): boolean {
  if (!isObject(node) || node.class !== "CONSTANT" || !isObject(node.value) || !isObject(node.value.type)) return false;
  return ["INTEGER", "BIGINT", "HUGEINT", "DOUBLE", "DECIMAL"].includes(String(node.value.type.id));
}

function call(name: string, argument: unknown): JsonObject {
  return {
    class: "FUNCTION",
    type: "FUNCTION",
    alias: "",
    function_name: name,
    schema: "",
    children: [argument],
    filter: null,
    order_bys: { type: "ORDER_MODIFIER", orders: [] },
    distinct: false,
    is_operator: false,
    export_state: false,
    catalog: "",
  };
}

/** The first number inside an expression (an interval's count, under DuckDB's casts), if any. */
function firstNumber(node: unknown): number | undefined {
  if (!isObject(node)) return undefined;
  if (node.class === "CONSTANT" && isObject(node.value)) {
    const value = Number(node.value.value);
    return Number.isFinite(value) ? value : undefined;
  }
  for (const child of [node.child, ...children(node)]) {
    const found = firstNumber(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The moment an expression stands for, in ms, as far as the real service's retention check reads one: `now()` and
 * the time functions are now (a truncation is not applied), `± INTERVAL n UNIT` moves it (a month is 30 days, a year
 * 365), a number is Unix milliseconds, a string a date. Undefined where it cannot tell (then nothing is refused).
 */
function momentOf(node: unknown, now: number): number | undefined {
  if (!isObject(node)) return undefined;
  if (node.class === "CONSTANT" && isObject(node.value)) {
    const value: unknown = node.value.value;
    if (typeof value === "number") return value;
    if (typeof value === "string") {
      const parsed = Date.parse(value.includes("T") || value.length <= 10 ? value : `${value.replace(" ", "T")}Z`);
      return Number.isNaN(parsed) ? undefined : parsed;
    }
    return undefined;
  }
  if (node.class === "CAST") return momentOf(node.child, now);
  if (node.class !== "FUNCTION") return undefined;
  const name = text(node.function_name);
  const args = children(node);
  if (name === "now" || name === "now64" || name === "today") return now;
  if (name === "date_trunc") return momentOf(args[1], now);
  if (TIMESTAMP_FUNCTIONS.has(name)) return momentOf(args[0], now);
  if (name === "-" || name === "+") {
    const base = momentOf(args[0], now);
    const interval = args[1];
    if (base === undefined || !isObject(interval)) return undefined;
    const unit = INTERVALS[text(interval.function_name)];
    const count = firstNumber(interval);
    if (unit === undefined || count === undefined) return undefined;
    return name === "-" ? base - count * unit : base + count * unit;
  }
  return undefined;
}

const LOWER_BOUNDS: Record<string, "left" | "right"> = {
  COMPARE_GREATERTHANOREQUALTO: "left",
  COMPARE_GREATERTHAN: "left",
  COMPARE_EQUAL: "left",
  COMPARE_LESSTHANOREQUALTO: "right",
  COMPARE_LESSTHAN: "right",
};

export class RetentionExceeded extends Error {}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function checkRetention(bound: unknown, now: number, retentionDays: number): void {
  const moment = momentOf(bound, now);
  const earliest = now - retentionDays * DAY_MS;
  if (moment !== undefined && moment < earliest) {
    throw new RetentionExceeded(
      `Cannot query data older than ${retentionDays} days. Your query attempts to access data from ${isoDate(moment)}, but only data from ${isoDate(earliest)} onwards is available.`,
    );
  }
}

/** Rewrites one comparison with `time` on the side given, and checks its lower bound. */
function rewriteComparison(
  node: JsonObject,
  timeSide: "left" | "right",
  kind: TimeKind | undefined,
  now: number,
  retentionDays: number,
): void {
  const otherSide = timeSide === "left" ? "right" : "left";
  const other = node[otherSide];
  if (LOWER_BOUNDS[String(node.type)] === timeSide) checkRetention(other, now, retentionDays);
  if (kind === "milliseconds" && isTimestamp(other)) node[otherSide] = call("clickhouse_seconds", other);
  else if (kind === "datetime" && isNumber(other)) node[timeSide] = call("clickhouse_seconds", node[timeSide]);
  else if (kind === "date" && isNumber(other)) node[timeSide] = call("clickhouse_day_number", node[timeSide]);
}

/** Walks one SELECT's own expressions (not its subqueries, which have their own FROM). */
function walkExpressions(value: unknown, visit: (node: JsonObject) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walkExpressions(item, visit);
    return;
  }
  if (!isObject(value) || value.type === "SELECT_NODE" || "subquery" in value) return;
  visit(value);
  for (const child of Object.values(value)) walkExpressions(child, visit);
}

function rewriteSelect(node: JsonObject, now: number, retentionDays: number, ctes: ReadonlySet<string>): void {
  const from = node.from_table;
  const table = isObject(from) && from.type === "BASE_TABLE" ? text(from.table_name) : "";
  const kind = ctes.has(table) ? undefined : TIME_KINDS.get(table);
  const qualifiers = new Set([table, isObject(from) ? text(from.alias) : ""].filter((name) => name !== ""));
  const visit = (expression: JsonObject): void => {
    if (expression.class === "COMPARISON") {
      if (isTimeColumn(expression.left, qualifiers)) rewriteComparison(expression, "left", kind, now, retentionDays);
      else if (isTimeColumn(expression.right, qualifiers))
        rewriteComparison(expression, "right", kind, now, retentionDays);
    } else if (expression.class === "BETWEEN" && isTimeColumn(expression.input, qualifiers)) {
      checkRetention(expression.lower, now, retentionDays);
    }
  };
  walkExpressions([node.where_clause, node.having, node.qualify], visit);
}

/** The names the WITH clauses of a tree define. */
function cteNames(value: unknown, names: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) cteNames(item, names);
  else if (isObject(value)) {
    if (isObject(value.cte_map) && Array.isArray(value.cte_map.map)) {
      for (const entry of value.cte_map.map) if (isObject(entry)) names.add(text(entry.key));
    }
    for (const child of Object.values(value)) cteNames(child, names);
  }
  return names;
}

/**
 * Rewrites every comparison of a public table's `time` as ClickHouse would evaluate it, and refuses a lower bound
 * more than `retentionDays` back (throws RetentionExceeded), in a checked statement's tree, in place.
 */
export function rewriteTimeComparisons(statement: unknown, now: number, retentionDays: number): void {
  const ctes = cteNames(statement, new Set());
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isObject(value)) return;
    if (value.type === "SELECT_NODE") rewriteSelect(value, now, retentionDays, ctes);
    for (const child of Object.values(value)) visit(child);
  };
  visit(statement);
}
