/**
 * ClickHouse's parametric calls, `quantile(0.9)(latency)`, which DuckDB's grammar does not parse, rewritten to one
 * call whose parameters follow its arguments, `quantile(latency, 0.9)`, before the query is parsed and checked (so a
 * function is allowed or refused by its name either way, as the real service's parser checks both of its lists).
 * A scanner of our own: DuckDB's parser is the only SQL parser here, and it refuses the form; this one only needs to
 * find a name followed by two parenthesised lists, outside strings, quoted names and comments.
 */

import { skipQuoted, skipSpace } from "./sql-text";

/** Words a parenthesised list may follow that are no function (`x IN (…)`), so never a parametric call. */
const KEYWORDS = new Set(
  `all and any array as between by case else except exists filter from in intersect is join lateral like not on or
  over select some struct table then union using values when where window with within`.split(/\s+/),
);

/** The index of the `)` closing the `(` at `open`, or -1 when it is never closed. */
function closing(sql: string, open: number): number {
  let depth = 0;
  for (let index = open; index < sql.length;) {
    const skipped = skipQuoted(sql, index);
    if (skipped !== index) {
      index = skipped;
      continue;
    }
    if (sql[index] === "(") depth += 1;
    else if (sql[index] === ")") {
      depth -= 1;
      if (depth === 0) return index;
    }
    index += 1;
  }
  return -1;
}

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_]/;

/** `f(p…)(a…)` as `f(a…, p…)`, throughout the text (also inside either list); any other text unchanged. */
export function rewriteParametricCalls(sql: string): string {
  // The common case costs one scan for a second list right after a first.
  if (!/\)\s*\(/.test(sql)) return sql;
  let out = "";
  let index = 0;
  while (index < sql.length) {
    const skipped = skipQuoted(sql, index);
    if (skipped !== index) {
      out += sql.slice(index, skipped);
      index = skipped;
      continue;
    }
    const char = sql[index] ?? "";
    const startsName = NAME_START.test(char) && !NAME_PART.test(sql[index - 1] ?? "");
    if (!startsName) {
      out += char;
      index += 1;
      continue;
    }
    let end = index + 1;
    while (end < sql.length && NAME_PART.test(sql[end] ?? "")) end += 1;
    const name = sql.slice(index, end);
    const call = KEYWORDS.has(name.toLowerCase()) ? undefined : parametricCall(sql, end);
    if (call === undefined) {
      out += name;
      index = end;
      continue;
    }
    const args = rewriteParametricCalls(call.args).trim();
    const params = rewriteParametricCalls(call.params).trim();
    out += `${name}(${[args, params].filter((list) => list !== "").join(", ")})`;
    index = call.end;
  }
  return out;
}

/** The two lists of a parametric call whose name ends at `from`, and where the call ends; undefined if it is none. */
function parametricCall(sql: string, from: number): { params: string; args: string; end: number } | undefined {
  const firstOpen = skipSpace(sql, from);
  if (sql[firstOpen] !== "(") return undefined;
  const firstClose = closing(sql, firstOpen);
  if (firstClose === -1) return undefined;
  const secondOpen = skipSpace(sql, firstClose + 1);
  if (sql[secondOpen] !== "(") return undefined;
  const secondClose = closing(sql, secondOpen);
  if (secondClose === -1) return undefined;
  return {
    params: sql.slice(firstOpen + 1, firstClose),
    args: sql.slice(secondOpen + 1, secondClose),
    end: secondClose + 1,
  };
}
