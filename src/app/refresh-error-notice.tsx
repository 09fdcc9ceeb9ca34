import { useId, useState } from "react";
import { LazyErrorPanel as ErrorPanel } from "../features/troubleshoot/components/lazy-error-panel";
import { useSecondsUntil } from "../lib/use-seconds-until";
import { ApiError, toKeyscopeError, type KeyscopeError } from "../lib/api-errors";
import { TROUBLESHOOT_PATH } from "./paths";

interface RefreshErrorNoticeProps {
  error: unknown;
  /** What failed: reloading the list, or loading its next page. */
  action: "refresh" | "load-more";
  baseUrl: string;
  onRetry: () => void;
  onReenterKey: () => void;
}

function summarize(error: KeyscopeError): string {
  switch (error.name) {
    case "ApiError":
      return `the API answered ${error.title} (HTTP ${error.status})`;
    case "NetworkError":
      return "Keyscope could not reach the API";
    case "TimeoutError":
      return "the API did not answer in time";
    case "UnexpectedResponseError":
      return `the answer was not the API's (HTTP ${error.status})`;
    case "InvalidConnectionError":
    case "InternalError":
      return error.message;
  }
}

/**
 * A failed refresh or "load more" while keys are on screen: one line that says so, the keys stay,
 * and the full guided panel is a click away.
 */
export function RefreshErrorNotice({ error, action, baseUrl, onRetry, onReenterKey }: RefreshErrorNoticeProps) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  // A rate-limited refresh may not be retried before the API allows it, here as in the panel.
  const secondsLeft = useSecondsUntil(error instanceof ApiError ? error.retryAt : null);
  const waiting = secondsLeft !== null && secondsLeft > 0;
  const what = action === "refresh" ? "Refresh failed" : "Loading more keys failed";
  const kept = action === "refresh" ? "The list shows the keys loaded before." : "The keys loaded so far stay listed.";
  return (
    <section className="refresh-notice" aria-label={what}>
      <div className="refresh-notice__bar">
        <p className="refresh-notice__text" role="alert">
          <strong>{what}:</strong> {summarize(toKeyscopeError(error))}. {kept}
        </p>
        <div className="refresh-notice__actions">
          <button
            type="button"
            className="button button--small"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen((shown) => !shown)}
          >
            {open ? "Hide details" : "Show details"}
          </button>
          <button type="button" className="button button--small button--primary" onClick={onRetry} disabled={waiting}>
            {waiting ? `Retry in ${secondsLeft} s` : "Retry"}
          </button>
        </div>
      </div>
      <div id={detailsId} hidden={!open} className="keys-error">
        {open && (
          <ErrorPanel
            error={error}
            baseUrl={baseUrl}
            onRetry={onRetry}
            onReenterKey={onReenterKey}
            troubleshootHref={TROUBLESHOOT_PATH}
          />
        )}
      </div>
    </section>
  );
}
