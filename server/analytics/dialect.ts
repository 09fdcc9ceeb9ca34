import { publicTables, VERIFICATIONS } from "./store-schema";

/**
 * The real service's analytics dialect (ClickHouse SQL) as far as the reference server speaks it: the documented
 * functions, and how each ClickHouse function maps onto DuckDB (as a macro). The public tables are each family's
 * (store-schema.ts): the verifications' five, the rate-limit decisions' five.
 */

/** The verifications' public tables, which analytics.getVerifications reads. */
export const PUBLIC_TABLES = publicTables(VERIFICATIONS);

/** ClickHouse functions DuckDB lacks, defined as macros with ClickHouse's names (DuckDB matches names case-insensitively). */
export const CLICKHOUSE_MACROS: readonly string[] = [
  "countIf(condition) AS count_if(condition)",
  "sumIf(value, condition) AS coalesce(sum(value) FILTER (WHERE condition), 0)",
  "uniq(value) AS count(DISTINCT value)",
  "uniqExact(value) AS count(DISTINCT value)",
  "groupArray(value) AS list(value)",
  "groupUniqArray(value) AS list(DISTINCT value)",
  '"any"(value) AS any_value(value)',
  // ClickHouse's now() is a DateTime (UTC here): as a plain TIMESTAMP it compares with the tables' times without
  // a time-zone cast per row, which would also keep DuckDB from skipping row groups by their time range.
  "now() AS CAST(get_current_timestamp() AS TIMESTAMP)",
  // now64(3): the precision is a DateTime64's; DuckDB's timestamps hold microseconds whatever it is.
  "now64() AS CAST(get_current_timestamp() AS TIMESTAMP), (digits) AS CAST(get_current_timestamp() AS TIMESTAMP)",
  "toDate(value) AS CAST(value AS DATE)",
  "toDateTime(value) AS CAST(value AS TIMESTAMP)",
  "toDateTime64(value, digits) AS CAST(value AS TIMESTAMP)",
  "toStartOfMinute(value) AS date_trunc('minute', CAST(value AS TIMESTAMP))",
  "toStartOfHour(value) AS date_trunc('hour', CAST(value AS TIMESTAMP))",
  "toStartOfDay(value) AS date_trunc('day', CAST(value AS TIMESTAMP))",
  "toStartOfWeek(value) AS CAST(date_trunc('week', CAST(value AS TIMESTAMP)) AS DATE)",
  "toStartOfMonth(value) AS CAST(date_trunc('month', CAST(value AS TIMESTAMP)) AS DATE)",
  "toStartOfYear(value) AS CAST(date_trunc('year', CAST(value AS TIMESTAMP)) AS DATE)",
  "formatDateTime(value, pattern) AS strftime(CAST(value AS TIMESTAMP), pattern)",
  "fromUnixTimestamp64Milli(ms) AS epoch_ms(CAST(ms AS BIGINT))",
  "toUnixTimestamp64Milli(value) AS epoch_ms(CAST(value AS TIMESTAMP))",
  "toIntervalYear(n) AS to_years(CAST(n AS INTEGER))",
  "toIntervalQuarter(n) AS to_months(3 * CAST(n AS INTEGER))",
  "toIntervalMonth(n) AS to_months(CAST(n AS INTEGER))",
  "toIntervalWeek(n) AS to_weeks(CAST(n AS INTEGER))",
  "toIntervalDay(n) AS to_days(CAST(n AS INTEGER))",
  "toIntervalHour(n) AS to_hours(CAST(n AS BIGINT))",
  "toIntervalMinute(n) AS to_minutes(CAST(n AS BIGINT))",
  "toIntervalSecond(n) AS to_seconds(CAST(n AS DOUBLE))",
  "toIntervalMillisecond(n) AS to_milliseconds(CAST(n AS DOUBLE))",
  "toIntervalMicrosecond(n) AS to_microseconds(CAST(n AS BIGINT))",
  "toIntervalNanosecond(n) AS to_microseconds(CAST(n AS BIGINT) // 1000)",
  "startsWith(value, prefix) AS starts_with(value, prefix)",
  "endsWith(value, suffix) AS ends_with(value, suffix)",
  "JSONExtractString(json, field) AS json_extract_string(json, field)",
  "toString(value) AS CAST(value AS VARCHAR)",
  "toInt32(value) AS CAST(value AS INTEGER)",
  "toInt64(value) AS CAST(value AS BIGINT)",
  "toFloat64(value) AS CAST(value AS DOUBLE)",
  "has(list, element) AS list_contains(list, element)",
  "hasAny(list, elements) AS list_has_any(list, elements)",
  "hasAll(list, elements) AS list_has_all(list, elements)",
  "arrayJoin(list) AS unnest(list)",
  // What ClickHouse compares when a time column meets a number (time-column.ts): a DateTime's Unix seconds, a Date's day number.
  "clickhouse_seconds(value) AS epoch(CAST(value AS TIMESTAMP))",
  "clickhouse_day_number(value) AS (CAST(value AS DATE) - DATE '1970-01-01')",
];

/** Names separated by white space, as a list. */
function words(list: string): readonly string[] {
  return list.split(/\s+/).filter((name) => name !== "");
}

/**
 * The functions the contract lists (docs/api.md#analytics), as it spells them. `case` is there because the real
 * service lists it; DuckDB parses `CASE WHEN …` as an expression of its own, never a call, so it is always allowed.
 */
export const DOCUMENTED_FUNCTIONS =
  words(`count sum avg min max any groupArray groupUniqArray uniq uniqExact quantile countIf sumIf
  now now64 today toDate toDateTime toDateTime64 toStartOfDay toStartOfWeek toStartOfMonth toStartOfYear toStartOfHour
  toStartOfMinute date_trunc formatDateTime fromUnixTimestamp64Milli toUnixTimestamp64Milli toIntervalDay toIntervalWeek
  toIntervalMonth toIntervalYear toIntervalHour toIntervalMinute toIntervalSecond toIntervalMillisecond
  toIntervalMicrosecond toIntervalNanosecond toIntervalQuarter lower upper substring concat length trim startsWith
  endsWith JSONExtractString round floor ceil abs if case coalesce toString toInt32 toInt64 toFloat64 has hasAny hasAll
  arrayJoin arrayFilter`);

/**
 * What DuckDB's parser itself turns plain syntax into: operators, `count(*)`, `INTERVAL 30 DAY` (to_days(trunc(…))),
 * `[a, b]`, `x[1]`, `LIKE`, `list_filter` and `list` (what arrayFilter and groupArray(DISTINCT …) are rewritten to),
 * and the time comparisons' macros (time-column.ts).
 */
const SYNTAX_FUNCTIONS = `+ - * / % // ** ^ || ~~ !~~ ~~* !~~* count_star trunc to_years to_months to_weeks to_days
  to_hours to_minutes to_seconds to_milliseconds to_microseconds list_value array_extract array_slice list_filter
  list clickhouse_seconds clickhouse_day_number`;

/** Window functions beside the aggregates (the contract allows window functions; docs/analytics.md lists these). */
export const WINDOW_FUNCTIONS = words("row_number rank dense_rank lag lead first_value last_value");

/** Lower-cased, as DuckDB's parse tree names them. */
function names(list: readonly string[]): Set<string> {
  return new Set(list.map((name) => name.toLowerCase()));
}

export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([
  ...names(DOCUMENTED_FUNCTIONS),
  ...names(words(SYNTAX_FUNCTIONS)),
]);
export const ALLOWED_WINDOW_FUNCTIONS: ReadonlySet<string> = new Set([
  ...ALLOWED_FUNCTIONS,
  ...names(WINDOW_FUNCTIONS),
]);
