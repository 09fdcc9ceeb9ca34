import { isObject, type JsonObject } from "./json-object";

/**
 * The analytics questions about a few keys, answered from SQLite's per-hour sums (`key_verifications_per_hour` in
 * the analytics engine's `analytics-sums.sqlite`, attached as `sums`; indexed by workspace, key and hour) instead of DuckDB: sums over `key_verifications_per_hour_v1` for listed key
 * ids and a recent window, as the keys page asks for the usage of each page of keys. SQLite reads them as a range
 * per key in about a millisecond; DuckDB spends about 4 ms binding, optimizing and starting the operators of any
 * such query (measured; docs/analytics.md#a-few-keys-sums-from-sqlite).
 *
 * Only queries whose answer is exactly DuckDB's are taken (test/server/analytics-key-rollup.test.ts compares both on
 * generated queries): one SELECT over that table, grouped by some of key_id, time, outcome, key_space_id,
 * external_id, selecting those columns and sum(count) or sum(spent_credits), filtered by an AND of `=`/`IN` on those
 * text columns and `time` against `now() - INTERVAL n HOUR|DAY|MINUTE`, ordered by selected columns, with a constant
 * LIMIT/OFFSET. Every other query goes to DuckDB. The SQLite read is synchronous, so it is bounded: key ids times
 * hours of the window at most ROLLUP_BUDGET (a row per key, hour and outcome, at most 8 outcomes).
 *
 * This module plans: it reads a checked query's parse tree into SQLite SQL over the sums, or declines. The sums are
 * kept and read by key-rollup.ts.
 */

const TABLE = "key_verifications_per_hour_v1";
const TEXT_DIMENSIONS = new Set(["key_id", "outcome", "key_space_id", "external_id"]);
const MEASURES = new Set(["count", "spent_credits"]);
/** Every column of the public table: an output named like one of them is that column, or a sum named like a measure. */
const TABLE_COLUMNS = new Set([...TEXT_DIMENSIONS, ...MEASURES, "time", "workspace_id", "tags"]);
const HOUR_MS = 60 * 60 * 1000;
const INTERVAL_MS = new Map([
  ["to_minutes", 60 * 1000],
  ["to_hours", HOUR_MS],
  ["to_days", 24 * HOUR_MS],
]);
/** At most this many key ids times hours of the window: a plan reading more goes to DuckDB as it is made. */
const ROLLUP_BUDGET = 20_000;
/** At most this many constants in the filter: each is a parameter SQLite binds in the analytics thread, between other queries. */
const MAX_PARAMS = 1_000;
/** A window longer than this is no "recent" window: DuckDB answers it. */
const MAX_WINDOW_MS = 31 * 24 * HOUR_MS;

type Column = "key_id" | "time" | "outcome" | "key_space_id" | "external_id";
type Output = { kind: "dimension"; column: Column } | { kind: "sum"; column: "count" | "spent_credits" };

/** A bound: the value is a text, or `now` minus `offsetMs` at run time. */
type Param = { kind: "text"; value: string } | { kind: "since"; offsetMs: number };

export interface RollupPlan {
  /** SQLite SQL: `?` for the workspace, then one for each of `params`, then the LIMIT and the OFFSET. */
  sql: string;
  /** How many rows of the sums the query reads, up to a limit: `?` for the workspace, the params, the limit. */
  countSql: string;
  params: Param[];
  /** Each output's JSON key (already a JSON string) and how its value is written. */
  outputs: { key: string; time: boolean }[];
  limit: number | undefined;
  offset: number;
}

class NotTaken extends Error {}

function fail(): never {
  throw new NotTaken();
}

function columnName(node: unknown): string | undefined {
  if (
    !isObject(node) ||
    node.class !== "COLUMN_REF" ||
    !Array.isArray(node.column_names) ||
    node.column_names.length !== 1
  )
    return undefined;
  const [name] = node.column_names as unknown[];
  return typeof name === "string" ? name : undefined;
}

function dimension(node: unknown): Column {
  const name = columnName(node);
  if (name !== undefined && (TEXT_DIMENSIONS.has(name) || name === "time")) return name as Column;
  return fail();
}

function textConstant(node: unknown): string {
  if (!isObject(node) || node.class !== "CONSTANT" || !isObject(node.value)) return fail();
  const { type, is_null: isNull, value } = node.value;
  if (!isObject(type) || type.id !== "VARCHAR" || isNull !== false || typeof value !== "string") return fail();
  return value;
}

// A DECIMAL constant is written as its digits (1.5 is 15), so only integer types are read as numbers.
const INTEGER_TYPES = new Set([
  "TINYINT",
  "SMALLINT",
  "INTEGER",
  "BIGINT",
  "UTINYINT",
  "USMALLINT",
  "UINTEGER",
  "UBIGINT",
]);

function integerConstant(node: unknown): number {
  if (!isObject(node) || node.class !== "CONSTANT" || !isObject(node.value)) return fail();
  const { type, is_null: isNull, value } = node.value;
  if (!isObject(type) || !INTEGER_TYPES.has(String(type.id))) return fail();
  if (isNull !== false || typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) return fail();
  return value;
}

/** A plain call: no FILTER, ORDER BY, DISTINCT, EXPORT_STATE, schema or catalog. */
function plainCall(node: unknown, name: string): unknown[] {
  if (!isObject(node) || node.class !== "FUNCTION" || node.function_name !== name || !Array.isArray(node.children))
    return fail();
  const orders = isObject(node.order_bys) && Array.isArray(node.order_bys.orders) ? node.order_bys.orders : undefined;
  if (
    node.filter !== null ||
    node.distinct !== false ||
    node.export_state !== false ||
    orders?.length !== 0 ||
    (node.schema !== "" && node.schema !== "main") ||
    node.catalog !== ""
  ) {
    return fail();
  }
  return node.children;
}

function cast(node: unknown, to: readonly string[]): unknown {
  if (
    !isObject(node) ||
    node.class !== "CAST" ||
    node.try_cast !== false ||
    !isObject(node.cast_type) ||
    !to.includes(String(node.cast_type.id))
  )
    return fail();
  return node.child;
}

/**
 * `now() - INTERVAL n HOUR|DAY|MINUTE`, as DuckDB parses it (`to_hours(CAST(trunc(CAST(n AS DOUBLE)) AS BIGINT))`,
 * INTEGER for days): n in ms.
 */
function sinceNow(node: unknown): number {
  const [now, interval, ...rest] = plainCall(node, "-");
  if (rest.length > 0 || plainCall(now, "now").length !== 0 || !isObject(interval)) return fail();
  const unit = INTERVAL_MS.get(String(interval.function_name)) ?? fail();
  const [amount, ...more] = plainCall(interval, String(interval.function_name));
  if (more.length > 0) return fail();
  const [truncated, ...extra] = plainCall(cast(amount, ["BIGINT", "INTEGER"]), "trunc");
  if (extra.length > 0) return fail();
  const offset = integerConstant(cast(truncated, ["DOUBLE"])) * unit;
  return offset <= MAX_WINDOW_MS ? offset : fail();
}

const TIME_OPERATORS = new Map([
  ["COMPARE_GREATERTHANOREQUALTO", { sql: ">=", flipped: "<=", lower: true }],
  ["COMPARE_GREATERTHAN", { sql: ">", flipped: "<", lower: true }],
  ["COMPARE_LESSTHANOREQUALTO", { sql: "<=", flipped: ">=", lower: false }],
  ["COMPARE_LESSTHAN", { sql: "<", flipped: ">", lower: false }],
]);

interface Filter {
  sql: string[];
  params: Param[];
  /** The fewest key ids a key predicate allows, if any. */
  keys: number | undefined;
  /** The longest lower bound on time, from now, if any. */
  windowMs: number | undefined;
}

function conjuncts(node: unknown): unknown[] {
  if (
    isObject(node) &&
    node.class === "CONJUNCTION" &&
    node.type === "CONJUNCTION_AND" &&
    Array.isArray(node.children)
  ) {
    return node.children.flatMap(conjuncts);
  }
  return [node];
}

function addPredicate(filter: Filter, node: unknown): void {
  if (!isObject(node)) return fail();
  if (node.class === "OPERATOR" && node.type === "COMPARE_IN" && Array.isArray(node.children)) {
    const [column, ...values] = node.children as unknown[];
    const name = dimension(column);
    if (name === "time" || values.length === 0) return fail();
    filter.sql.push(`${name} IN (${values.map(() => "?").join(", ")})`);
    filter.params.push(...values.map((value): Param => ({ kind: "text", value: textConstant(value) })));
    if (name === "key_id") filter.keys = Math.min(filter.keys ?? Infinity, values.length);
    return;
  }
  if (node.class !== "COMPARISON") return fail();
  const leftName = columnName(node.left);
  const [columnNode, other, flipped] =
    leftName !== undefined ? [node.left, node.right, false] : [node.right, node.left, true];
  const name = dimension(columnNode);
  if (name === "time") {
    const operator = TIME_OPERATORS.get(String(node.type)) ?? fail();
    const offsetMs = sinceNow(other);
    filter.sql.push(`time ${flipped ? operator.flipped : operator.sql} ?`);
    filter.params.push({ kind: "since", offsetMs });
    // `time > now() - x` read with the column on the left: a lower bound.
    if (operator.lower !== flipped) filter.windowMs = Math.max(filter.windowMs ?? 0, offsetMs);
    return;
  }
  if (node.type !== "COMPARE_EQUAL") return fail();
  filter.sql.push(`${name} = ?`);
  filter.params.push({ kind: "text", value: textConstant(other) });
  if (name === "key_id") filter.keys = 1;
}

function output(node: unknown): { output: Output; name: string } {
  if (!isObject(node)) return fail();
  const alias = typeof node.alias === "string" ? node.alias : "";
  if (node.class === "COLUMN_REF") {
    const column = dimension(node);
    // DuckDB names an unaliased column as written; only the plain lower-case name is taken.
    const name = alias === "" ? column : alias;
    return name === column || !TABLE_COLUMNS.has(name.toLowerCase())
      ? { output: { kind: "dimension", column }, name }
      : fail();
  }
  const [argument, ...rest] = plainCall(node, "sum");
  const measure = columnName(argument);
  if (rest.length > 0 || measure === undefined || !MEASURES.has(measure) || node.is_operator !== false || alias === "")
    return fail();
  // No alias that GROUP BY or WHERE could read as a column of theirs (they read no measure).
  if (TABLE_COLUMNS.has(alias.toLowerCase()) && !MEASURES.has(alias.toLowerCase())) return fail();
  return { output: { kind: "sum", column: measure as "count" | "spent_credits" }, name: alias };
}

function outputSql(item: Output): string {
  return item.kind === "sum" ? `sum(${item.column})` : item.column;
}

function modifiers(
  node: JsonObject,
  names: string[],
  groups: ReadonlySet<Column>,
): { order: string[]; limit: number | undefined; offset: number } {
  const list = Array.isArray(node.modifiers) ? node.modifiers : fail();
  const order: string[] = [];
  let limit: number | undefined;
  let offset = 0;
  for (const modifier of list) {
    if (!isObject(modifier)) return fail();
    if (modifier.type === "ORDER_MODIFIER" && Array.isArray(modifier.orders) && order.length === 0) {
      for (const item of modifier.orders) {
        if (!isObject(item) || item.null_order !== "ORDER_DEFAULT") return fail();
        const direction =
          item.type === "DESCENDING"
            ? "DESC"
            : item.type === "ASCENDING" || item.type === "ORDER_DEFAULT"
              ? "ASC"
              : fail();
        const name = columnName(item.expression) ?? fail();
        // DuckDB binds an ORDER BY name to the select list first, then to the table's columns.
        const position = names.indexOf(name);
        if (position >= 0) order.push(`${position + 1} ${direction}`);
        else if (groups.has(name as Column)) order.push(`${name} ${direction}`);
        else return fail();
      }
    } else if (modifier.type === "LIMIT_MODIFIER" && limit === undefined) {
      limit = integerConstant(modifier.limit);
      offset = modifier.offset === null ? 0 : integerConstant(modifier.offset);
    } else {
      return fail();
    }
  }
  return { order, limit, offset };
}

function plan(statement: unknown): RollupPlan {
  if (!isObject(statement) || !isObject(statement.node)) return fail();
  const node = statement.node;
  if (
    node.type !== "SELECT_NODE" ||
    node.having !== null ||
    node.qualify !== null ||
    node.sample !== null ||
    node.aggregate_handling !== "STANDARD_HANDLING"
  ) {
    return fail();
  }
  if (!isObject(node.cte_map) || !Array.isArray(node.cte_map.map) || node.cte_map.map.length > 0) return fail();
  const from = node.from_table;
  if (
    !isObject(from) ||
    from.type !== "BASE_TABLE" ||
    String(from.table_name).toLowerCase() !== TABLE ||
    from.alias !== "" ||
    from.sample !== null
  )
    return fail();
  if (!Array.isArray(from.column_name_alias) || from.column_name_alias.length > 0 || from.at_clause !== null)
    return fail();

  const groupList = Array.isArray(node.group_expressions) ? node.group_expressions.map(dimension) : fail();
  const groups = new Set(groupList);
  const sets = Array.isArray(node.group_sets) ? node.group_sets : fail();
  const [set, ...moreSets] = sets as unknown[];
  // One plain GROUP BY of distinct columns (no GROUPING SETS, ROLLUP or CUBE), and at least one column.
  if (
    groups.size === 0 ||
    groups.size !== groupList.length ||
    moreSets.length > 0 ||
    !Array.isArray(set) ||
    set.length !== groupList.length
  )
    return fail();

  const selected = Array.isArray(node.select_list) ? node.select_list.map(output) : fail();
  const names = selected.map((item) => item.name);
  if (selected.length === 0 || new Set(names.map((name) => name.toLowerCase())).size !== names.length) return fail();
  for (const { output: item } of selected) if (item.kind === "dimension" && !groups.has(item.column)) return fail();

  const filter: Filter = { sql: [], params: [], keys: undefined, windowMs: undefined };
  if (node.where_clause !== null) for (const predicate of conjuncts(node.where_clause)) addPredicate(filter, predicate);
  const hours = filter.windowMs === undefined ? Infinity : Math.ceil(filter.windowMs / HOUR_MS) + 1;
  if (filter.keys === undefined || filter.keys * hours > ROLLUP_BUDGET || filter.params.length > MAX_PARAMS)
    return fail();

  const { order, limit, offset } = modifiers(node, names, groups);
  const where = `WHERE ${["workspace_id = ?", ...filter.sql].join(" AND ")}`;
  const sql = [
    `SELECT ${selected.map((item) => outputSql(item.output)).join(", ")}`,
    "FROM sums.key_verifications_per_hour",
    where,
    `GROUP BY ${groupList.join(", ")}`,
    order.length > 0 ? `ORDER BY ${order.join(", ")}` : "",
    "LIMIT ? OFFSET ?",
  ].join(" ");
  return {
    sql,
    countSql: `SELECT count(*) FROM (SELECT 1 FROM sums.key_verifications_per_hour ${where} LIMIT ?)`,
    params: filter.params,
    outputs: selected.map((item) => ({
      key: JSON.stringify(item.name),
      time: item.output.kind === "dimension" && item.output.column === "time",
    })),
    limit,
    offset,
  };
}

/** The plan for a checked statement (from `checkQuery`, before any rewrite), or undefined when DuckDB must answer it. */
export function planRollupQuery(statement: unknown): RollupPlan | undefined {
  try {
    return plan(statement);
  } catch (error) {
    if (error instanceof NotTaken || error instanceof RangeError) return undefined;
    throw error;
  }
}
