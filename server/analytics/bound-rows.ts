import { isObject, type JsonObject } from "./json-object";

/**
 * Bounds a checked query's result in its own parse tree: a query with no LIMIT gets `LIMIT maxRows + 1`, so the
 * engine may run it to completion (a materialized result, much faster than a stream for the small results a
 * dashboard asks for) and still tell a result over the row limit from one at it, without ever holding more.
 */

function limitModifier(rows: number): JsonObject {
  return {
    type: "LIMIT_MODIFIER",
    limit: {
      class: "CONSTANT",
      type: "VALUE_CONSTANT",
      alias: "",
      value: { type: { id: "BIGINT", type_info: null }, is_null: false, value: rows },
    },
    offset: null,
  };
}

function constantInteger(expression: unknown): number | undefined {
  if (!isObject(expression) || expression.class !== "CONSTANT" || !isObject(expression.value)) return undefined;
  const value = expression.value.value;
  return typeof value === "number" && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Adds `LIMIT rows` to the top query of a checked statement (from `checkQuery`) that has none, in place. True when
 * the result then holds at most `rows` rows: a LIMIT added, or one already there that is a constant no greater.
 * False for any other LIMIT (an expression, a percentage, a bigger number): such a query is read as a stream.
 */
export function boundRows(statement: unknown, rows: number): boolean {
  if (!isObject(statement) || !isObject(statement.node) || !Array.isArray(statement.node.modifiers)) return false;
  const modifiers: unknown[] = statement.node.modifiers;
  const limits = modifiers.filter(
    (modifier) =>
      isObject(modifier) && (modifier.type === "LIMIT_MODIFIER" || modifier.type === "LIMIT_PERCENT_MODIFIER"),
  );
  const [existing] = limits;
  if (existing === undefined) {
    modifiers.push(limitModifier(rows));
    return true;
  }
  if (limits.length > 1 || !isObject(existing) || existing.type !== "LIMIT_MODIFIER") return false;
  const limit = constantInteger(existing.limit);
  return limit !== undefined && limit >= 0 && limit <= rows;
}
