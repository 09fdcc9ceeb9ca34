import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  type DuckDBDataChunk,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBValueConverter,
  type Json,
} from "@duckdb/node-api";

/** The rows of a query result as JSON texts, the way ClickHouse's JSON output writes them. */

const WIDE_INTEGERS = new Set<DuckDBTypeId>([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// Times and dates as text, remembered: a result repeats a few buckets over and over, and the driver's formatting
// of each is most of the cost of turning a usage result into JSON.
const MAX_REMEMBERED_TIMES = 10_000;
const timeTexts = new Map<bigint | number, string>();

function remembered(key: bigint | number, format: () => string): string {
  let text = timeTexts.get(key);
  if (text === undefined) {
    if (timeTexts.size >= MAX_REMEMBERED_TIMES) timeTexts.clear();
    text = format();
    timeTexts.set(key, text);
  }
  return text;
}

/** A 64- or 128-bit integer as ClickHouse's JSON output has it here: a number while it is exact, else its digits. */
export function exactInteger(value: bigint): number | string {
  return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : String(value);
}

/**
 * DuckDB's JSON conversion, except that counts and sums (64- and 128-bit) are numbers while they fit exactly, and
 * decimals (what `round` of a literal gives) are numbers, as ClickHouse's JSON output has them.
 */
export const toJson: DuckDBValueConverter<Json> = (value, type, converter) => {
  if (typeof value === "bigint" && WIDE_INTEGERS.has(type.typeId)) return exactInteger(value);
  // Timestamps (microseconds, a bigint) and dates (days, a number) never share a key.
  if (value instanceof DuckDBTimestampValue && type.typeId === DuckDBTypeId.TIMESTAMP)
    return remembered(value.micros, () => value.toString());
  if (value instanceof DuckDBDateValue && type.typeId === DuckDBTypeId.DATE)
    return remembered(value.days, () => value.toString());
  if (value instanceof DuckDBDecimalValue) return value.toDouble();
  return JsonDuckDBValueConverter(value, type, converter);
};

/** One column's values as JSON texts: the common types straight from DuckDB's values, any other through `toJson`. */
function columnJson(values: readonly DuckDBValue[], type: DuckDBType): string[] {
  switch (type.typeId) {
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
      // A string, a boolean, a number (or null): what DuckDB's JSON conversion gives them unchanged.
      return values.map((value) => JSON.stringify(value));
    default:
      return values.map((value) => (value === null ? "null" : JSON.stringify(toJson(value, type, toJson))));
  }
}

/**
 * Each row of a chunk as a JSON object text, with `keys` (the result's deduplicated column names, each already a
 * JSON string) in column order — unlike a JavaScript object, which would move integer-like names first.
 */
export function rowsJson(chunk: DuckDBDataChunk, keys: readonly string[]): string[] {
  const columns = chunk.getColumns().map((values, index) => columnJson(values, chunk.getColumnVector(index).type));
  const rows: string[] = [];
  for (let row = 0; row < chunk.rowCount; row += 1) {
    let json = "{";
    for (let index = 0; index < columns.length; index += 1) {
      json += `${index === 0 ? "" : ","}${keys[index]}:${columns[index]?.[row] ?? "null"}`;
    }
    rows.push(`${json}}`);
  }
  return rows;
}
