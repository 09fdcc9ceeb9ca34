import { isObject, type JsonObject } from "./json-object";

/**
 * Whether a checked query's parse tree compares the column `key_id` with `=` or `IN` anywhere: such a query reads
 * a few keys' rows, which the per-hour copy sorted by key holds in a few row groups. It only picks a physical
 * layout: both copies of the per-hour table hold the same rows, so a query gets the same answer from either.
 */

function isKeyColumn(node: unknown): boolean {
  if (!isObject(node) || node.class !== "COLUMN_REF" || !Array.isArray(node.column_names)) return false;
  const name: unknown = node.column_names.at(-1);
  return typeof name === "string" && name.toLowerCase() === "key_id";
}

function comparesKey(node: JsonObject): boolean {
  if (node.class === "COMPARISON" && node.type === "COMPARE_EQUAL")
    return isKeyColumn(node.left) || isKeyColumn(node.right);
  if (node.class === "OPERATOR" && node.type === "COMPARE_IN" && Array.isArray(node.children))
    return isKeyColumn(node.children[0]);
  return false;
}

export function filtersByKey(tree: unknown): boolean {
  // An explicit stack: a checked tree may be deeper than the call stack would allow.
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const value = stack.pop();
    const children = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
    if (isObject(value) && comparesKey(value)) return true;
    for (const child of children) stack.push(child);
  }
  return false;
}
