/**
 * The loaded keys as files: CSV (RFC 4180, safe to open in a spreadsheet) and JSON. Pure, so the quoting
 * and the formula neutralising are tested without a browser.
 */
import type { Key } from "../../lib/contract";

const COLUMNS = ["keyId", "name", "start", "enabled", "createdAt", "expires", "meta"] as const;

/** A cell a spreadsheet would run as a formula (=, +, -, @, or a tab/CR that hides one) gets a leading '. */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(value: string): string {
  const safe = neutralizeFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function isoOrEmpty(ms: number | undefined): string {
  if (ms === undefined) return "";
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

function cells(key: Key): string[] {
  return [
    key.keyId,
    key.name ?? "",
    key.start ?? "",
    key.enabled === undefined ? "" : String(key.enabled),
    isoOrEmpty(key.createdAt),
    isoOrEmpty(key.expires),
    key.meta === undefined ? "" : JSON.stringify(key.meta),
  ];
}

/** Header row and one row per key, CRLF line ends as RFC 4180 has them. */
export function keysToCsv(keys: readonly Key[]): string {
  return [COLUMNS.join(","), ...keys.map((key) => cells(key).map(csvField).join(","))].join("\r\n") + "\r\n";
}

export function keysToJson(keys: readonly Key[], exportedAt: Date): string {
  return `${JSON.stringify({ exportedAt: exportedAt.toISOString(), count: keys.length, keys }, null, 2)}\n`;
}

/** `keyscope-keys-2026-11-22.csv`: the date of the export, in UTC. */
export function exportFileName(format: "csv" | "json", date: Date): string {
  return `keyscope-keys-${date.toISOString().slice(0, 10)}.${format}`;
}
