import { useId, useMemo, useState } from "react";
import { ApiError, toKeyscopeError } from "@/lib/api-errors";
import { describeError } from "../error-catalog";
import { useSecondsUntil } from "@/lib/hooks/use-seconds-until";
import { LazyErrorPanel as ErrorPanel } from "./lazy-error-panel";
import { refreshFailureWords, type RefreshAction } from "./refresh-error-words";

export interface RefreshErrorNoticeProps {
  error: unknown;
  /** What failed: reloading the list, or loading its next page. */
  action: RefreshAction;
  baseUrl: string;
  onRetry: () => void;
  onReenterKey: () => void;
  troubleshootHref: string;
}

/**
 * A failed refresh or "load more" while keys are on screen: one line that says so, the keys stay,
 * and the full guided panel is a click away.
 */
export function RefreshErrorNotice({
  error,
  action,
  baseUrl,
  onRetry,
  onReenterKey,
  troubleshootHref,
}: RefreshErrorNoticeProps) {
  // The catalog's heading, the same words the panel behind "Show details" starts with.
  const heading = useMemo(() => describeError(toKeyscopeError(error), { baseUrl }).heading, [error, baseUrl]);
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  // A rate-limited refresh may not be retried before the API allows it, here as in the panel.
  const secondsLeft = useSecondsUntil(error instanceof ApiError ? error.retryAt : null);
  const waiting = secondsLeft !== null && secondsLeft > 0;
  const { what, kept } = refreshFailureWords(action);
  return (
    <section className="refresh-notice" aria-label={what}>
      <div className="refresh-notice__bar">
        <p className="refresh-notice__text" role="alert">
          <strong>{what}:</strong> {heading}. {kept}
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
            troubleshootHref={troubleshootHref}
          />
        )}
      </div>
    </section>
  );
}
