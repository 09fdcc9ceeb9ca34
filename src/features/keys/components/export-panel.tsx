import { useId, useState } from "react";
import { LateCodeBoundary } from "@/components/late-code-boundary";
import { retryableLazy } from "@/lib/retryable-lazy";
import type { ExportPanelProps } from "./export-panel-body";
import "./export-buttons.css";

// What the open panel holds (the CSV and JSON writers among it) loads on first open: not before the first row.
const ExportPanelBody = retryableLazy(
  () => import("./export-panel-body"),
  (module) => module.ExportPanelBody,
);

/**
 * Export what the table shows — its filter, its sort, its columns — and say exactly what that is: how many
 * of how many loaded keys, whether the server holds more, with a way to load the rest first.
 */
export function ExportPanel(props: ExportPanelProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="keys-export">
      <button
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        Export…
      </button>
      <section id={panelId} hidden={!open} className="keys-export__panel" aria-label="Export">
        {open && (
          <LateCodeBoundary what="The export" loading={<p role="status">Loading the export…</p>}>
            <ExportPanelBody {...props} />
          </LateCodeBoundary>
        )}
      </section>
    </div>
  );
}
