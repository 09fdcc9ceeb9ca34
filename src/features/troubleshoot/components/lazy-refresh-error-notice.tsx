import { Suspense } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { InternalError, toKeyscopeError } from "@/lib/api-errors";
import { RetryLoadButton } from "@/components/retry-load-button";
import { retryableLazy } from "@/lib/retryable-lazy";
import type { RefreshErrorNoticeProps } from "./refresh-error-notice";
import { refreshFailureWords } from "./refresh-error-words";

// The notice words its heading from the error catalog, which a keys page that loads fine never needs: it loads
// on a failed refresh, or once the first screen is idle (the app calls `preloadRefreshErrorNotice`), since a
// failure is often the server going away.
const RefreshErrorNotice = retryableLazy(
  () => import("./refresh-error-notice"),
  (module) => module.RefreshErrorNotice,
);

export const preloadRefreshErrorNotice = (): Promise<void> => RefreshErrorNotice.preload();

/** The refresh notice, loaded on first use; while it loads, or if its code cannot, the failure still shows in a line. */
export function LazyRefreshErrorNotice(props: RefreshErrorNoticeProps) {
  return (
    <ErrorBoundary fallbackRender={() => <NoticeCodeFailed {...props} />}>
      <Suspense fallback={<NoticeLine action={props.action} detail={null} />}>
        <RefreshErrorNotice {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}

function NoticeLine({
  action,
  detail,
  onRetry,
}: Pick<RefreshErrorNoticeProps, "action"> & { detail: string | null; onRetry?: () => void }) {
  const { what, kept } = refreshFailureWords(action);
  return (
    <section className="refresh-notice" aria-label={what}>
      <div className="refresh-notice__bar">
        <p className="refresh-notice__text" role="alert">
          {detail === null ? <strong>{what}.</strong> : <strong>{what}:</strong>}{" "}
          {detail === null ? kept : `${detail.replace(/\.$/, "")}. ${kept}`}
        </p>
        {onRetry && (
          <div className="refresh-notice__actions">
            <RetryLoadButton onRetry={onRetry} className="button button--small button--primary" />
          </div>
        )}
      </div>
    </section>
  );
}

/** When the notice's own code cannot load (offline, a stale deploy): the error's message, through the one scrub. */
function NoticeCodeFailed({ error, action, onRetry }: RefreshErrorNoticeProps) {
  const failure = toKeyscopeError(error);
  return (
    <NoticeLine
      action={action}
      detail={failure instanceof InternalError ? failure.summary : failure.message}
      onRetry={onRetry}
    />
  );
}
