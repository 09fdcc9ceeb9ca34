import { isObject, type JsonObject } from "./json-object";

/**
 * ClickHouse's `arrayJoin(list) AS x` in a grouped SELECT (`SELECT arrayJoin(tags) AS tag, count(*) … GROUP BY tag`)
 * makes one row per element before grouping. DuckDB's unnest may not stand in a grouped SELECT ("UNNEST not
 * supported here"), so such a SELECT is rewritten to group over a subquery that unnests first:
 *
 *   SELECT tag, count(*) FROM (SELECT *, arrayJoin(tags) AS tag FROM t WHERE …) AS t GROUP BY tag
 *
 * The WHERE moves inside with the FROM it filters; the outer SELECT keeps its grouping, HAVING, ORDER BY and LIMIT.
 */

function isArrayJoin(node: unknown): node is JsonObject {
  return isObject(node) && node.class === "FUNCTION" && String(node.function_name).toLowerCase() === "arrayjoin";
}

const STAR = {
  class: "STAR",
  type: "STAR",
  alias: "",
  relation_name: "",
  exclude_list: [],
  replace_list: [],
  columns: false,
  expr: null,
  qualified_exclude_list: [],
  rename_list: [],
};

function rewriteSelect(node: JsonObject): void {
  const selectList = node.select_list;
  const from = node.from_table;
  if (
    !Array.isArray(selectList) ||
    !isObject(from) ||
    !Array.isArray(node.group_expressions) ||
    node.group_expressions.length === 0
  )
    return;
  const joins = selectList.filter(isArrayJoin).filter((item) => typeof item.alias === "string" && item.alias !== "");
  if (joins.length === 0) return;
  const alias =
    typeof from.alias === "string" && from.alias !== ""
      ? from.alias
      : typeof from.table_name === "string"
        ? from.table_name
        : "";
  const inner: JsonObject = {
    type: "SELECT_NODE",
    modifiers: [],
    cte_map: { map: [] },
    select_list: [STAR, ...joins],
    from_table: from,
    where_clause: node.where_clause ?? null,
    group_expressions: [],
    group_sets: [],
    aggregate_handling: "STANDARD_HANDLING",
    having: null,
    sample: null,
    qualify: null,
  };
  node.from_table = {
    type: "SUBQUERY",
    alias,
    sample: null,
    subquery: { node: inner, named_param_map: [] },
    column_name_alias: [],
  };
  node.where_clause = null;
  node.select_list = selectList.map((item: unknown) =>
    isArrayJoin(item) && joins.includes(item)
      ? { class: "COLUMN_REF", type: "COLUMN_REF", alias: item.alias, column_names: [item.alias] }
      : item,
  );
}

/** Rewrites every grouped SELECT with an aliased arrayJoin in its select list, in a checked statement's tree, in place. */
export function rewriteGroupedArrayJoins(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) rewriteGroupedArrayJoins(item);
    return;
  }
  if (!isObject(value)) return;
  for (const child of Object.values(value)) rewriteGroupedArrayJoins(child);
  if (value.type === "SELECT_NODE") rewriteSelect(value);
}
