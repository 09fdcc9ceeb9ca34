/**
 * Reading a query's text before DuckDB parses it (parametric-calls.ts, keyword-columns.ts): where its strings, quoted
 * names and comments end, so that what they hold is never read as SQL.
 */

/** Where the text quoted or commented from `start` ends (the index after it), or `start` if nothing begins there. */
export function skipQuoted(sql: string, start: number): number {
  const char = sql[start];
  if (char === "'" || char === '"' || char === "`") {
    // A quote doubled inside is the quote itself.
    for (let index = start + 1; index < sql.length; index += 1) {
      if (sql[index] !== char) continue;
      if (sql[index + 1] === char) index += 1;
      else return index + 1;
    }
    return sql.length;
  }
  if (char === "-" && sql[start + 1] === "-") {
    const end = sql.indexOf("\n", start);
    return end === -1 ? sql.length : end + 1;
  }
  if (char === "/" && sql[start + 1] === "*") {
    const end = sql.indexOf("*/", start + 2);
    return end === -1 ? sql.length : end + 2;
  }
  return start;
}

/** The index after white space and comments from `start`. */
export function skipSpace(sql: string, start: number): number {
  let index = start;
  for (;;) {
    while (index < sql.length && /\s/.test(sql[index] ?? "")) index += 1;
    const skipped = sql[index] === "-" || sql[index] === "/" ? skipQuoted(sql, index) : index;
    if (skipped === index) return index;
    index = skipped;
  }
}
