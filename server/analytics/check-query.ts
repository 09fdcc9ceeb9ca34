import { ALLOWED_FUNCTIONS, ALLOWED_WINDOW_FUNCTIONS, PUBLIC_TABLES } from "./dialect";
import { rewriteGroupedArrayJoins } from "./array-join";
import { isObject, type JsonObject } from "./json-object";
import { DEFAULT_RETENTION_DAYS } from "../db/workspaces";
import { RetentionExceeded, rewriteTimeComparisons } from "./time-column";

/** Why a query is refused, mapped to the contract's error codes by the route. */
export type QueryRefusal = "query_type" | "query" | "table" | "function" | "retention";

export type CheckResult = { ok: true; statement: unknown } | { ok: false; refusal: QueryRefusal; message: string };

// Every `type` a parse-tree object may have; anything else (PIVOT, SHOW_REF, recursive CTEs, …) is refused.
const QUERY_NODES = new Set(["SELECT_NODE", "SET_OPERATION_NODE"]);
const TABLE_REFS = new Set(["BASE_TABLE", "JOIN", "SUBQUERY", "EMPTY", "EXPRESSION_LIST"]);
const MODIFIERS = new Set(["ORDER_MODIFIER", "LIMIT_MODIFIER", "LIMIT_PERCENT_MODIFIER", "DISTINCT_MODIFIER"]);
const ORDER_TYPES = new Set(["ORDER_DEFAULT", "ASCENDING", "DESCENDING"]);
const EXPRESSION_CLASSES = new Set([
  "COLUMN_REF",
  "CONSTANT",
  "FUNCTION",
  "WINDOW",
  "COMPARISON",
  "CONJUNCTION",
  "OPERATOR",
  "CASE",
  "CAST",
  "BETWEEN",
  "SUBQUERY",
  "STAR",
  "LAMBDA",
  "COLLATE",
  "POSITIONAL_REFERENCE",
]);

class Refused extends Error {
  constructor(
    readonly refusal: QueryRefusal,
    message: string,
  ) {
    super(message);
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function checkTable(node: JsonObject, ctes: ReadonlySet<string>, tables: readonly string[]): void {
  const name = text(node.table_name).toLowerCase();
  // The real service's words: "Access to table '…' is not allowed".
  if (text(node.schema_name) !== "" || text(node.catalog_name) !== "") {
    const qualified = [node.catalog_name, node.schema_name, node.table_name].filter((part) => part !== "").join(".");
    throw new Refused(
      "table",
      `Access to table '${qualified}' is not allowed: only the public tables may be queried, by their bare names`,
    );
  }
  if (!tables.includes(name) && !ctes.has(name)) {
    throw new Refused(
      "table",
      `Access to table '${text(node.table_name)}' is not allowed: only ${tables.join(", ")} (and your own CTEs) may be queried`,
    );
  }
}

function checkFunction(node: JsonObject, allowed: ReadonlySet<string>): void {
  const name = text(node.function_name).toLowerCase();
  const schema = text(node.schema);
  if ((schema !== "" && schema !== "main") || text(node.catalog) !== "" || !allowed.has(name)) {
    throw new Refused("function", `The function "${text(node.function_name)}" is not supported in analytics queries`);
  }
  // groupArray(DISTINCT x) is DuckDB's list(DISTINCT x): a macro cannot take DISTINCT.
  if ((name === "grouparray" || name === "groupuniqarray") && node.distinct === true) node.function_name = "list";
  // ClickHouse's arrayFilter(lambda, list) is DuckDB's list_filter(list, lambda): a macro cannot take a lambda.
  if (name === "arrayfilter" && Array.isArray(node.children) && node.children.length === 2) {
    node.function_name = "list_filter";
    node.children.reverse();
  }
}

function checkObject(node: JsonObject): void {
  const expressionClass = node.class;
  if (typeof expressionClass === "string") {
    if (!EXPRESSION_CLASSES.has(expressionClass)) {
      throw new Refused("query", `This kind of expression is not supported in analytics queries (${expressionClass})`);
    }
    if (expressionClass === "FUNCTION") checkFunction(node, ALLOWED_FUNCTIONS);
    if (expressionClass === "WINDOW") checkFunction(node, ALLOWED_WINDOW_FUNCTIONS);
    return;
  }
  const type = node.type;
  if (typeof type !== "string") return;
  if (type === "TABLE_FUNCTION") {
    throw new Refused("table", "Table functions are not supported: query the public tables by name");
  }
  if (type === "RECURSIVE_CTE_NODE")
    throw new Refused("query", "Recursive CTEs are not supported in analytics queries");
  if (
    QUERY_NODES.has(type) ||
    TABLE_REFS.has(type) ||
    MODIFIERS.has(type) ||
    ORDER_TYPES.has(type) ||
    type.endsWith("_TYPE_INFO")
  )
    return;
  throw new Refused(
    type.endsWith("_NODE") ? "query_type" : "table",
    `This SQL construct is not supported in analytics queries (${type})`,
  );
}

/** The names a node's WITH clause defines, in order, each with its query. */
function cteEntries(node: JsonObject): { name: string; value: unknown }[] {
  const cteMap = node.cte_map;
  if (!isObject(cteMap) || !Array.isArray(cteMap.map)) return [];
  return cteMap.map.filter(isObject).map((entry) => ({ name: text(entry.key).toLowerCase(), value: entry.value }));
}

function walk(value: unknown, ctes: ReadonlySet<string>, tables: readonly string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, ctes, tables);
    return;
  }
  if (!isObject(value)) return;
  checkObject(value);
  if (value.type === "BASE_TABLE") checkTable(value, ctes, tables);

  let scope = ctes;
  const entries = cteEntries(value);
  if (entries.length > 0) {
    // A CTE's body sees only the CTEs before it: its own name there would be a physical table's.
    const before = new Set(ctes);
    for (const entry of entries) {
      walk(entry.value, before, tables);
      before.add(entry.name);
    }
    scope = before;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key !== "cte_map") walk(child, scope, tables);
  }
}

/**
 * Checks the parse tree DuckDB's `json_serialize_sql` returns for a query (its JSON, parsed) against the analytics
 * rules: one SELECT, only the public tables of one family (`tables`: the verifications' unless given; also inside CTEs
 * and subqueries), only the documented functions, no lower time bound more than `retentionDays` back (the workspace's
 * retention). Rewrites arrayFilter, groupArray(DISTINCT …) and the time comparisons (time-column.ts) and arrayJoin in
 * a grouped SELECT (array-join.ts) in place. `now`: the instant the retention is counted back from. Never throws.
 */
export function checkQuery(
  tree: unknown,
  retentionDays = DEFAULT_RETENTION_DAYS,
  now = Date.now(),
  tables: readonly string[] = PUBLIC_TABLES,
): CheckResult {
  if (!isObject(tree)) return { ok: false, refusal: "query", message: "The query could not be parsed" };
  if (tree.error === true) {
    const message = text(tree.error_message);
    // json_serialize_sql parses first: a parse error is unparsable SQL, anything after it a statement that is not a SELECT.
    if (tree.error_type === "parser")
      return { ok: false, refusal: "query", message: `The query could not be parsed: ${message}` };
    return { ok: false, refusal: "query_type", message: "Only SELECT queries are allowed" };
  }
  const statements: unknown = tree.statements;
  if (!Array.isArray(statements) || statements.length === 0) {
    return { ok: false, refusal: "query", message: "The query is empty" };
  }
  if (statements.length > 1)
    return { ok: false, refusal: "query_type", message: "Send one SELECT statement, not several" };
  const statement: unknown = statements[0];
  if (!isObject(statement) || !isObject(statement.node) || !QUERY_NODES.has(text(statement.node.type))) {
    return { ok: false, refusal: "query_type", message: "Only SELECT queries are allowed" };
  }
  try {
    walk(statement, new Set(), tables);
    rewriteTimeComparisons(statement, now, retentionDays);
    rewriteGroupedArrayJoins(statement);
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal, message: error.message };
    if (error instanceof RetentionExceeded) return { ok: false, refusal: "retention", message: error.message };
    // Only a tree too deep for the walk's stack gets here.
    return { ok: false, refusal: "query", message: "The query is nested too deeply to be checked" };
  }
  return { ok: true, statement };
}
