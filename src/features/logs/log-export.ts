import { logRowColumns, type LogRow } from "@/lib/analytics-rows";
import { csvLine, UTF8_BOM } from "@/lib/csv";

/**
 * The filtered log as a file: CSV (RFC 4180, its fields written as every export of the dashboard writes them) or JSON,
 * in the log's order, every column of the verification. Pure; the pages come from log-queries' exportPage.
 */

/** The most rows an export holds. */
export const EXPORT_LIMIT = 100_000;

const CSV_HEADER = [
  "time",
  "request_id",
  "outcome",
  "key_id",
  "key_name",
  "external_id",
  "tags",
  "region",
  "spent_credits",
  "key_space_id",
  "source",
  "app_id",
];

export function csvHeader(): string {
  return `${UTF8_BOM}${csvLine(CSV_HEADER)}`;
}

/** One CSV line a verification; tags joined by “; ”, the key's name where the log knows it. */
export function csvRows(rows: readonly LogRow[], keyName: (keyId: string) => string | undefined): string {
  return rows
    .map((row) =>
      csvLine([
        new Date(row.time).toISOString(),
        row.requestId,
        row.outcome,
        row.keyId,
        keyName(row.keyId) ?? "",
        row.externalId,
        row.tags.join("; "),
        row.region,
        String(row.spentCredits),
        row.keySpaceId,
        row.source,
        row.appId,
      ]),
    )
    .join("");
}

/** The JSON file's parts: an object naming the filter and the time, and the verifications as the analytics table names their columns. */
export function jsonParts(
  rows: readonly (readonly LogRow[])[],
  about: { exportedAt: Date; from: number; to: number; complete: boolean },
): string[] {
  const count = rows.reduce((sum, page) => sum + page.length, 0);
  const head = `{"exportedAt":${JSON.stringify(about.exportedAt.toISOString())},"from":${JSON.stringify(new Date(about.from).toISOString())},"to":${JSON.stringify(new Date(about.to).toISOString())},"complete":${about.complete},"count":${count},"verifications":[\n`;
  const body = rows.flatMap((page) => page.map((row) => JSON.stringify(logRowColumns(row)))).join(",\n");
  return [head, body, "\n]}\n"];
}

/** `keyscope-log-2026-11-27.csv`: the date of the export, in UTC. */
export function logExportFileName(format: "csv" | "json", date: Date): string {
  return `keyscope-log-${date.toISOString().slice(0, 10)}.${format}`;
}
