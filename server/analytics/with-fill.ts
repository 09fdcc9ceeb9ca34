/**
 * ClickHouse's `ORDER BY column WITH FILL [FROM a] [TO b] [STEP s]`, which DuckDB cannot parse: the clause is cut
 * out of the text (splitWithFill), the query left is checked like any other, and the engine runs it wrapped
 * (filledSql) so that the result also holds one row per missing step between the bounds:
 *
 *   WITH __fill_data AS MATERIALIZED (<the checked query, without its ORDER BY and LIMIT>),
 *        __fill_bounds AS (<the checked SELECT a, b, s>)
 *   SELECT * FROM (SELECT * FROM __fill_data
 *                  UNION ALL SELECT <defaults, the step's value> FROM (range(…) LIMIT <the row limit + 1>)
 *                            WHERE <not in the data>)
 *   <the checked ORDER BY and LIMIT>
 *
 * As in ClickHouse: FROM is included and TO is not; without FROM or TO the data's first or last value bounds the
 * fill; the step is 1 (a day for a Date, a second for a DateTime, negated for DESC), a number of days or seconds
 * for a date column, and may not point against the order; the other columns of a filled row are their types'
 * defaults (0, '', false, [], 1970-01-01). Unlike ClickHouse, the steps are counted from FROM (or the first value),
 * not restarted at each row: a row off the grid is kept, and the grid goes on around it.
 */

/** The WITH FILL clause's parts, as text still to be checked. */
export interface FillClause {
  from: string | undefined;
  to: string | undefined;
  step: string | undefined;
}

export type SplitFill =
  { kind: "none" } | { kind: "refused"; message: string } | { kind: "fill"; query: string; clause: FillClause };

interface Word {
  text: string;
  start: number;
  end: number;
  depth: number;
}

/** The words and commas of a query outside its strings, quoted names and comments, each with its parenthesis depth. */
function wordsOf(sql: string): Word[] {
  const words: Word[] = [];
  let depth = 0;
  let index = 0;
  while (index < sql.length) {
    const char = sql[index];
    if (char === "'" || char === '"' || char === "`") {
      let end = index + 1;
      while (end < sql.length && !(sql[end] === char && sql[end + 1] !== char)) end += sql[end] === char ? 2 : 1;
      index = end + 1;
    } else if (sql.startsWith("--", index)) {
      const end = sql.indexOf("\n", index);
      index = end === -1 ? sql.length : end;
    } else if (sql.startsWith("/*", index)) {
      const end = sql.indexOf("*/", index + 2);
      index = end === -1 ? sql.length : end + 2;
    } else if (char === "(") {
      depth += 1;
      index += 1;
    } else if (char === ")") {
      depth -= 1;
      index += 1;
    } else if (char === "," || char === ";") {
      words.push({ text: char, start: index, end: index + 1, depth });
      index += 1;
    } else if (/[A-Za-z_]/.test(char ?? "")) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(index));
      const text = match?.[0] ?? char ?? "";
      words.push({ text: text.toUpperCase(), start: index, end: index + text.length, depth });
      index += text.length;
    } else {
      index += 1;
    }
  }
  return words;
}

/** What ends a WITH FILL clause at the outer level: the next ORDER BY item, the LIMIT, the end of the statement. */
const CLAUSE_ENDS = new Set([",", ";", "LIMIT", "OFFSET", "SETTINGS", "FORMAT"]);
const UNSUPPORTED = new Set(["INTERPOLATE", "STALENESS"]);

/**
 * Finds a WITH FILL clause in a query's text. `query` is the text without it, to be checked as any query is;
 * a WITH FILL anywhere but on the first ORDER BY item of the outer query is refused, as is INTERPOLATE.
 */
export function splitWithFill(sql: string): SplitFill {
  const words = wordsOf(sql);
  const fills = words.flatMap((word, index) =>
    word.text === "WITH" && words[index + 1]?.text === "FILL" ? [index] : [],
  );
  const first = fills[0];
  if (first === undefined) return { kind: "none" };
  const refused = (message: string): SplitFill => ({ kind: "refused", message });
  const fill = words[first];
  if (fill === undefined) return { kind: "none" };
  if (fills.length > 1)
    return refused("WITH FILL is supported once per query, on the first ORDER BY column of the outer query");
  if (fill.depth !== 0)
    return refused("WITH FILL is supported on the first ORDER BY column of the outer query only, not in a subquery");
  const before = words.slice(0, first).filter((word) => word.depth === 0);
  const orderAt = before.findLastIndex((word, index) => word.text === "ORDER" && before[index + 1]?.text === "BY");
  if (orderAt === -1) return refused("WITH FILL belongs to an ORDER BY column");
  if (before.slice(orderAt).some((word) => word.text === ",")) {
    return refused("WITH FILL is supported on the first ORDER BY column only");
  }

  const parts = new Map<string, { start: number; end: number }>();
  let current: string | undefined;
  let clauseEnd = sql.length;
  for (const word of words.slice(first + 2)) {
    if (word.depth < 0) return refused("The query could not be parsed: unbalanced parentheses");
    if (word.depth > 0) continue;
    if (UNSUPPORTED.has(word.text))
      return refused(`WITH FILL … ${word.text} is not supported in analytics queries here`);
    if (CLAUSE_ENDS.has(word.text)) {
      clauseEnd = word.start;
      break;
    }
    if (word.text === "FROM" || word.text === "TO" || word.text === "STEP") {
      if (parts.has(word.text)) return refused(`WITH FILL has ${word.text} twice`);
      const previous = current === undefined ? undefined : parts.get(current);
      if (previous !== undefined) previous.end = word.start;
      parts.set(word.text, { start: word.end, end: sql.length });
      current = word.text;
    } else if (current === undefined) {
      return refused(`WITH FILL is followed by FROM, TO or STEP, not ${word.text}`);
    }
  }
  const last = current === undefined ? undefined : parts.get(current);
  if (last !== undefined) last.end = clauseEnd;
  const part = (name: string): string | undefined => {
    const range = parts.get(name);
    if (range === undefined) return undefined;
    const text = sql.slice(range.start, range.end).trim();
    return text === "" ? undefined : text;
  };
  for (const name of parts.keys()) if (part(name) === undefined) return refused(`WITH FILL's ${name} has no value`);
  return {
    kind: "fill",
    query: `${sql.slice(0, fill.start)} ${sql.slice(clauseEnd)}`,
    clause: { from: part("FROM"), to: part("TO"), step: part("STEP") },
  };
}

/** The SELECT whose three columns are the clause's bounds and step (NULL where not given), to be checked. */
export function boundsQuery(clause: FillClause): string {
  return `SELECT (${clause.from ?? "NULL"}) AS lo, (${clause.to ?? "NULL"}) AS hi, (${clause.step ?? "NULL"}) AS step`;
}

export interface Column {
  name: string;
  /** DuckDB's name of its type, as DESCRIBE gives it. */
  type: string;
}

const NUMBER_TYPES =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL(\(\d+,\s*\d+\))?)$/;
const TIMESTAMP_TYPES = /^TIMESTAMP(_S|_MS|_NS| WITH TIME ZONE)?$/;

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A filled row's value for a column other than the filled one: ClickHouse's default of its type. */
function defaultValue(type: string): string {
  if (NUMBER_TYPES.test(type)) return `CAST(0 AS ${type})`;
  if (type === "VARCHAR") return "''";
  if (type === "BOOLEAN") return "false";
  if (type === "DATE") return "DATE '1970-01-01'";
  if (TIMESTAMP_TYPES.test(type)) return `CAST(TIMESTAMP '1970-01-01 00:00:00' AS ${type})`;
  if (type.endsWith("[]")) return `CAST([] AS ${type})`;
  return `CAST(NULL AS ${type})`;
}

export interface FillPlan {
  /** The checked query without its ORDER BY and LIMIT. */
  dataSql: string;
  /** Its columns. */
  columns: readonly Column[];
  /** The checked SELECT of the bounds and step, and the step's type. */
  boundsSql: string;
  stepType: string;
  /** The filled column's name, and whether it is ordered descending. */
  column: string;
  descending: boolean;
  /** `SELECT * FROM __fill_rows` with the checked ORDER BY and LIMIT. */
  outerSql: string;
  /** Past the row limit: no more filled rows are made (the result is then refused as too many rows anyway). */
  maxFilledRows: number;
}

/** The query that runs a WITH FILL query on DuckDB; throws an Error whose message says why it cannot be filled. */
export function filledSql(plan: FillPlan): string {
  const filled = plan.columns.find((column) => column.name.toLowerCase() === plan.column.toLowerCase());
  if (filled === undefined) throw new Error(`WITH FILL's column ${plan.column} is not a column of the result`);
  const type = filled.type;
  const isDate = type === "DATE";
  const isTimestamp = TIMESTAMP_TYPES.test(type);
  const isNumber = NUMBER_TYPES.test(type);
  if (!isDate && !isTimestamp && !isNumber)
    throw new Error(`WITH FILL fills a number, a Date or a DateTime column, not ${type}`);
  const stepIsNumber = NUMBER_TYPES.test(plan.stepType) || plan.stepType === '"NULL"' || plan.stepType === "NULL";
  if (isNumber && !stepIsNumber) throw new Error("WITH FILL's STEP for a number column is a number");
  if (!stepIsNumber && plan.stepType !== "INTERVAL")
    throw new Error(`WITH FILL's STEP is a number or an INTERVAL, not ${plan.stepType}`);

  const key = quoted(filled.name);
  const sign = plan.descending ? -1 : 1;
  // A number as a step: days for a Date, seconds for a DateTime (as ClickHouse adds it to one).
  const givenStep = stepIsNumber
    ? isDate
      ? "to_days(CAST(b.step AS INTEGER))"
      : isTimestamp
        ? "to_seconds(b.step)"
        : "b.step"
    : "b.step";
  const oneStep = isDate ? `to_days(${sign})` : isTimestamp ? `to_seconds(${sign})` : `${sign}`;
  const zero = isNumber ? "0" : "to_seconds(0)";
  const direction = plan.descending ? "descending" : "ascending";
  const wrongSign = plan.descending ? ">" : "<";
  const step = `CASE WHEN b.step IS NULL THEN ${oneStep}
      WHEN ${givenStep} = ${zero} THEN error('WITH FILL STEP value cannot be zero')
      WHEN ${givenStep} ${wrongSign} ${zero} THEN error('WITH FILL STEP value cannot be ${plan.descending ? "positive" : "negative"} for sorting in ${direction} direction')
      ELSE ${givenStep} END`;
  const first = plan.descending ? "max" : "min";
  const last = plan.descending ? "min" : "max";
  // Numbers: the bounds as given (a TO past the column type's range still ends the fill), each step's value
  // counted from FROM (DuckDB's range takes whole numbers only). Dates and times: range over timestamps.
  const bound = (expression: string) => (isNumber ? expression : `CAST(${expression} AS ${type})`);
  const from = `coalesce(${bound("b.lo")}, (SELECT ${first}(${key}) FROM __fill_data))`;
  const to = `coalesce(${bound("b.hi")}, (SELECT ${last}(${key}) FROM __fill_data))`;
  // range's arguments as scalar subqueries, not columns (a lateral range is made whole), and its steps limited
  // before they meet the data: past the limit, the result is refused as too many rows anyway.
  const limit = Math.floor(plan.maxFilledRows);
  const steps = isNumber
    ? `range(0, (SELECT CAST(least(ceil((hi - lo) / step), ${limit}) AS BIGINT) FROM __fill_bounds)) AS __fill_steps(number)`
    : "range((SELECT lo FROM __fill_bounds), (SELECT hi FROM __fill_bounds), (SELECT step FROM __fill_bounds)) AS __fill_steps(value)";
  const value = isNumber
    ? `CAST(f.lo + __fill_steps.number * f.step AS ${type})`
    : `CAST(__fill_steps.value AS ${type})`;
  const fillColumns = plan.columns.map(
    (column) => `${column === filled ? value : defaultValue(column.type)} AS ${quoted(column.name)}`,
  );
  return `WITH __fill_data AS MATERIALIZED (${plan.dataSql}),
  __fill_bounds AS (SELECT ${from} AS lo, ${to} AS hi, ${step} AS step FROM (${plan.boundsSql}) AS b),
  __fill_steps AS (SELECT * FROM ${steps} LIMIT ${limit}),
  __fill_missing AS (
    SELECT ${fillColumns.join(", ")}
    FROM __fill_bounds AS f, __fill_steps
    WHERE NOT EXISTS (SELECT 1 FROM __fill_data AS d WHERE d.${key} = ${value})
  ),
  __fill_rows AS (SELECT * FROM __fill_data UNION ALL SELECT * FROM __fill_missing)
${plan.outerSql}`;
}
