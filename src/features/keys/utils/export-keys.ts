/**
 * What the table shows, as files: CSV (RFC 4180, UTF-8 with a byte-order mark, safe to open in a spreadsheet: the
 * fields written by src/lib/csv.ts) and JSON. Pure.
 */
import { csvField, UTF8_BOM } from "@/lib/csv";
import type { ColumnId } from "../columns/column-specs";
import type { Key } from "@/lib/contract";
import { statusLabels, type UsageTotals } from "./key-status";

function isoOrEmpty(ms: number | undefined): string {
  if (ms === undefined) return "";
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

/** A key's usage totals, where the dashboard has them (the rows that have been in view). */
export type UsageOf = (keyId: string) => UsageTotals | undefined;

/** Each table column as CSV: its header and its value. The usage bars are not exported (they cover only the rows seen). */
const CSV_COLUMNS: Record<
  Exclude<ColumnId, "usage">,
  { header: string; value: (key: Key, now: number, usageOf: UsageOf) => string }
> = {
  name: { header: "name", value: (key) => key.name ?? "" },
  keyId: { header: "keyId", value: (key) => key.keyId },
  start: { header: "start", value: (key) => key.start ?? "" },
  status: {
    header: "status",
    value: (key, now, usageOf) =>
      statusLabels(key, now, usageOf(key.keyId))
        .map(({ label }) => label)
        .join("; "),
  },
  lastUsed: { header: "lastUsedAt", value: (key) => isoOrEmpty(key.lastUsedAt) },
  credits: {
    header: "creditsRemaining",
    value: (key) =>
      key.credits === undefined ? "" : key.credits.remaining === null ? "unlimited" : String(key.credits.remaining),
  },
  externalId: { header: "externalId", value: (key) => key.identity?.externalId ?? "" },
  createdAt: { header: "createdAt", value: (key) => isoOrEmpty(key.createdAt) },
  expires: { header: "expires", value: (key) => isoOrEmpty(key.expires) },
};

export function isExportedColumn(column: ColumnId): column is Exclude<ColumnId, "usage"> {
  return column !== "usage";
}

/**
 * A byte-order mark, the header row and one row per key, in the given columns; CRLF line ends as RFC 4180 has them.
 * The status column holds what the table shows, the statuses from usage included where `usageOf` has it.
 */
export function keysToCsv(
  keys: readonly Key[],
  columns: readonly ColumnId[],
  now: number,
  usageOf: UsageOf = () => undefined,
): string {
  const exported = columns.filter(isExportedColumn).map((column) => CSV_COLUMNS[column]);
  const lines = [
    exported.map((column) => column.header).join(","),
    ...keys.map((key) => exported.map((column) => csvField(column.value(key, now, usageOf))).join(",")),
  ];
  return `${UTF8_BOM}${lines.join("\r\n")}\r\n`;
}

export function keysToJson(keys: readonly Key[], exportedAt: Date): string {
  return `${JSON.stringify({ exportedAt: exportedAt.toISOString(), count: keys.length, keys }, null, 2)}\n`;
}

/** `keyscope-keys-2026-11-22.csv`: the date of the export, in UTC. */
export function exportFileName(format: "csv" | "json", date: Date): string {
  return `keyscope-keys-${date.toISOString().slice(0, 10)}.${format}`;
}
