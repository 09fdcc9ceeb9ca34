import type { Key } from "../../../lib/contract";
import { exportFileName, keysToCsv, keysToJson } from "../export-keys";
import "./export-buttons.css";

/** Saves a file through a temporary link: no server round trip, nothing kept after the click. */
function download(content: string, type: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Export the loaded keys as CSV or JSON, named with today's date. */
export function ExportButtons({ keys }: { keys: readonly Key[] }) {
  return (
    <div className="keys-toolbar__export" role="group" aria-label="Export loaded keys">
      <button
        type="button"
        className="button"
        onClick={() => download(keysToCsv(keys), "text/csv;charset=utf-8", exportFileName("csv", new Date()))}
      >
        Export CSV
      </button>
      <button
        type="button"
        className="button"
        onClick={() => download(keysToJson(keys, new Date()), "application/json", exportFileName("json", new Date()))}
      >
        Export JSON
      </button>
    </div>
  );
}
