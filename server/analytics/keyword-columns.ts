import { skipQuoted, skipSpace } from "./sql-text";

/**
 * Columns named as keywords, which ClickHouse reads as columns where DuckDB's grammar reads the keyword:
 * `ratelimits_v1.limit` (`SELECT limit, remaining FROM ratelimits_v1`), quoted as `"limit"` before the query is parsed
 * wherever the word stands as a column, not as a clause (`LIMIT 10`).
 */

/** The words after which `limit` is a column: the ones that may follow a column, none that may follow LIMIT. */
const AFTER_COLUMN = new Set(
  `from as and or desc asc is in not between like when then else end group order having where union except intersect
  window nulls`.split(/\s+/),
);
const AFTER_COLUMN_SIGNS = new Set([",", ")", ";", "=", "<", ">", "!", "+", "*", "/", "%", "|", "]"]);

const NAME_PART = /[A-Za-z0-9_]/;

/** Whether the word ending at `end` is a column by what follows it (or a `.` before it, at `start`). */
function isColumn(sql: string, start: number, end: number): boolean {
  if (sql[start - 1] === ".") return true;
  const next = skipSpace(sql, end);
  if (next >= sql.length) return true;
  const char = sql[next] ?? "";
  if (AFTER_COLUMN_SIGNS.has(char)) return true;
  // `limit - remaining` is arithmetic; `LIMIT -5` a clause.
  if (char === "-") return !/\d/.test(sql[skipSpace(sql, next + 1)] ?? "");
  let wordEnd = next;
  while (wordEnd < sql.length && NAME_PART.test(sql[wordEnd] ?? "")) wordEnd += 1;
  return AFTER_COLUMN.has(sql.slice(next, wordEnd).toLowerCase());
}

/** The text with each `limit` that stands as a column quoted. */
export function quoteKeywordColumns(sql: string): string {
  if (!/limit/i.test(sql)) return sql;
  let out = "";
  let index = 0;
  while (index < sql.length) {
    const skipped = skipQuoted(sql, index);
    if (skipped !== index) {
      out += sql.slice(index, skipped);
      index = skipped;
      continue;
    }
    if (!NAME_PART.test(sql[index] ?? "")) {
      out += sql[index] ?? "";
      index += 1;
      continue;
    }
    let end = index;
    while (end < sql.length && NAME_PART.test(sql[end] ?? "")) end += 1;
    const word = sql.slice(index, end);
    out += word.toLowerCase() === "limit" && isColumn(sql, index, end) ? '"limit"' : word;
    index = end;
  }
  return out;
}
