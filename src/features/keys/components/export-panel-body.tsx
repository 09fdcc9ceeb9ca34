import { COLUMN_SPECS, type ColumnId } from "../columns/column-specs";
import type { Key } from "@/lib/contract";
import type { KeysLoader } from "../hooks/use-keys-loader";
import { downloadFile as download } from "@/lib/download-file";
import { formatCount, formatCountOf } from "@/lib/format-number";
import { exportFileName, isExportedColumn, keysToCsv, keysToJson, type UsageOf } from "../utils/export-keys";

export interface ExportPanelProps {
  /** How many keys the table shows, and the keys themselves in its order (read on a click, not on every render). */
  shownCount: number;
  shownKeys: () => readonly Key[];
  /** The usage totals the table's statuses come from (read on a click too). */
  usageOf: () => UsageOf;
  columns: readonly ColumnId[];
  now: number;
  loaded: number;
  hasMore: boolean;
  /** The list could not be confirmed as current (offline, a failed refresh). */
  stale: boolean;
  loader: KeysLoader;
}

/** The open export panel: what the file will hold, and the buttons that make it (loaded on first open). */
export function ExportPanelBody({
  shownCount,
  shownKeys,
  usageOf,
  columns,
  now,
  loaded,
  hasMore,
  stale,
  loader,
}: ExportPanelProps) {
  const csvColumns = columns.filter(isExportedColumn);
  const loading =
    loader.state.phase === "loading" || loader.state.phase === "rate-limited" || loader.state.phase === "offline";
  const scope =
    shownCount === loaded
      ? `${formatCountOf(shownCount, "key")}, every key loaded`
      : `${formatCount(shownCount)} of ${formatCountOf(loaded, "key")} loaded, as filtered`;
  return (
    <>
      <p>
        <strong>Exports {scope}</strong>, in the table&apos;s order, with its columns (
        {csvColumns.map((id) => COLUMN_SPECS[id].label).join(", ")}; JSON has every field).
      </p>
      {hasMore && (
        <p className="keys-export__warning">
          The server holds more keys that are not loaded yet, so the file would not have them.{" "}
          {!loading && (
            <button type="button" className="button button--small" onClick={() => void loader.start("export")}>
              Load the rest first
            </button>
          )}
        </p>
      )}
      {stale && (
        <p className="keys-export__warning">
          The list is not current (see above): the file holds the keys as last loaded.
        </p>
      )}
      <div className="keys-toolbar__export" role="group" aria-label="Export shown keys">
        <button
          type="button"
          className="button"
          onClick={() =>
            download(
              keysToCsv(shownKeys(), columns, now, usageOf()),
              "text/csv;charset=utf-8",
              exportFileName("csv", new Date()),
            )
          }
        >
          Export CSV
        </button>
        <button
          type="button"
          className="button"
          onClick={() =>
            download(keysToJson(shownKeys(), new Date()), "application/json", exportFileName("json", new Date()))
          }
        >
          Export JSON
        </button>
      </div>
    </>
  );
}
