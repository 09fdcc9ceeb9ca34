import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { LogRow } from "@/lib/analytics-rows";
import type { VerificationCursor } from "@/lib/analytics-sql";
import type { Connection } from "@/lib/api/transport";
import { downloadFile } from "@/lib/download-file";
import { formatCount } from "@/lib/format-number";
import type { LogFilter } from "@/lib/log-sql";
import { EXPORT_PAGE_SIZE, exportPage } from "../api/log-queries";
import { csvHeader, csvRows, EXPORT_LIMIT, jsonParts, logExportFileName } from "../log-export";

type Format = "csv" | "json";

type ExportState =
  | { phase: "idle" }
  | { phase: "running"; format: Format; done: number }
  | { phase: "stopped"; format: Format; pages: LogRow[][]; done: number }
  | { phase: "saved"; format: Format; done: number; complete: boolean }
  | { phase: "failed"; format: Format; done: number; error: unknown };

export interface LogExportPanelProps {
  connection: Connection;
  filter: LogFilter;
  /** The range's verifications (the chart's total), when known. */
  total: number | undefined;
  keyName: (keyId: string) => string | undefined;
  renderError: (error: unknown, onRetry: () => void) => ReactNode;
}

/**
 * Export the filtered log, newest first, up to 100,000 verifications: page by page with the log's own cursor (5,000 a
 * query), with its progress and Stop; stopped, what came can still be saved.
 */
export function LogExportPanel({ connection, filter, total, keyName, renderError }: LogExportPanelProps) {
  const [state, setState] = useState<ExportState>({ phase: "idle" });
  const controller = useRef<AbortController | null>(null);
  // What the running export has received, for Stop to save.
  const received = useRef<LogRow[][]>([]);
  const progressId = useId();
  useEffect(() => () => controller.current?.abort(), []);
  const target = total === undefined ? EXPORT_LIMIT : Math.min(total, EXPORT_LIMIT);
  const queries = Math.max(1, Math.ceil(target / EXPORT_PAGE_SIZE));

  function save(format: Format, pages: readonly LogRow[][], complete: boolean) {
    const now = new Date();
    const content =
      format === "csv"
        ? [csvHeader(), ...pages.map((page) => csvRows(page, keyName))]
        : jsonParts(pages, { exportedAt: now, from: filter.from, to: filter.to, complete });
    downloadFile(
      content,
      format === "csv" ? "text/csv;charset=utf-8" : "application/json",
      logExportFileName(format, now),
    );
  }

  async function run(format: Format) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    const pages: LogRow[][] = [];
    received.current = pages;
    let done = 0;
    let after: VerificationCursor | undefined;
    setState({ phase: "running", format, done });
    try {
      for (;;) {
        const page = await exportPage(connection, filter, after, abort.signal);
        const room = EXPORT_LIMIT - done;
        const items = page.items.slice(0, room);
        pages.push(items);
        done += items.length;
        after = page.next;
        if (abort.signal.aborted) return;
        if (after === undefined || done >= EXPORT_LIMIT) break;
        setState({ phase: "running", format, done });
      }
      save(format, pages, after === undefined);
      setState({ phase: "saved", format, done, complete: after === undefined });
    } catch (error) {
      if (abort.signal.aborted) return;
      setState({ phase: "failed", format, done, error });
    }
  }

  function stop(format: Format) {
    controller.current?.abort();
    const pages = received.current;
    setState({ phase: "stopped", format, pages, done: pages.reduce((sum, page) => sum + page.length, 0) });
  }

  return (
    <div className="log-export">
      <p>
        Exports the log as filtered, newest first:{" "}
        {total === undefined
          ? `up to ${formatCount(EXPORT_LIMIT)} verifications`
          : total > EXPORT_LIMIT
            ? `the newest ${formatCount(EXPORT_LIMIT)} of ${formatCount(total)} verifications`
            : `${formatCount(total)} ${total === 1 ? "verification" : "verifications"}`}
        , every column. It takes {queries === 1 ? "one analytics query" : `up to ${queries} analytics queries`} (
        {formatCount(EXPORT_PAGE_SIZE)} verifications each).
      </p>
      <div className="log-export__buttons" role="group" aria-label="Export the log">
        <button type="button" className="button" disabled={state.phase === "running"} onClick={() => void run("csv")}>
          Export CSV
        </button>
        <button type="button" className="button" disabled={state.phase === "running"} onClick={() => void run("json")}>
          Export JSON
        </button>
      </div>
      {state.phase === "running" && (
        <RunningExport progressId={progressId} done={state.done} target={target} onStop={() => stop(state.format)} />
      )}
      {state.phase === "stopped" && (
        <p role="status">
          Stopped after {formatCount(state.done)} verifications.{" "}
          {state.done > 0 && (
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                save(state.format, state.pages, false);
                setState({ phase: "saved", format: state.format, done: state.done, complete: false });
              }}
            >
              Save these {formatCount(state.done)}
            </button>
          )}
        </p>
      )}
      {state.phase === "saved" && (
        <p role="status">
          Saved {formatCount(state.done)} {state.done === 1 ? "verification" : "verifications"} as{" "}
          {state.format.toUpperCase()}
          {state.complete ? "." : `: not all of them (the file says so).`}
        </p>
      )}
      {state.phase === "failed" && renderError(state.error, () => void run(state.format))}
    </div>
  );
}

function RunningExport({
  progressId,
  done,
  target,
  onStop,
}: {
  progressId: string;
  done: number;
  target: number;
  onStop: () => void;
}) {
  return (
    <div className="log-export__progress">
      <label htmlFor={progressId}>
        {formatCount(done)} of {formatCount(target)} verifications
      </label>
      <progress id={progressId} max={Math.max(1, target)} value={done} />
      <button type="button" className="button button--small" onClick={onStop}>
        Stop
      </button>
    </div>
  );
}
