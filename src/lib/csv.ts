/**
 * CSV as RFC 4180 writes it, safe to open in a spreadsheet: what every export of the dashboard (the keys, the log)
 * writes its fields with. Pure, so the quoting and the formula neutralising are tested without a browser.
 */

/** Spreadsheet programs on Windows read a CSV as UTF-8 only when it starts with this. */
export const UTF8_BOM = "\uFEFF";

/** A cell a spreadsheet would run as a formula (=, +, -, @, or a tab/CR that hides one) gets a leading '. */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(value: string): string {
  const safe = neutralizeFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line of fields, with the CRLF line end RFC 4180 has. */
export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
