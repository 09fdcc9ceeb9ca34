import { QueryErrorResetBoundary } from "@tanstack/react-query";
import { ErrorBoundary } from "react-error-boundary";
import { useParams } from "react-router-dom";
import { OfflineNotice } from "../../components/offline-notice";
import { KeyPage } from "../../features/key-page/components/key-page";
import { NotAKeyId } from "../../features/key-page/components/not-a-key-id";
import { isPlausibleKeyId } from "../../features/key-page/plausible-key-id";
import { revealBidiControls } from "../../lib/bidi";
import { useNow } from "../../lib/hooks/use-now";
import { AnalyticsErrorNotice } from "../../features/troubleshoot/components/analytics-error-notice";
import { LazyErrorPanel as ErrorPanel } from "../../features/troubleshoot/components/lazy-error-panel";
import { OutcomeExplanation } from "../../features/troubleshoot/components/outcome-explanation";
import { verificationFacts } from "../../features/troubleshoot/verification-facts";
import { KeyActionsSlot } from "../key-actions-slot";
import { identityPath, paths, requestLookupPath, TROUBLESHOOT_PATH } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { useForgetKey } from "../use-forget-key";
import { useKeyChangesFromOtherTabs } from "../use-key-changes-from-other-tabs";
import { usePageTitle } from "../use-page-title";

/**
 * A key's page, composed: the key-page feature shows the key and its use; troubleshoot explains each outcome from the
 * catalog, says why analytics cannot be read, and gives the panel when the key itself cannot be.
 */
export function KeyRoute() {
  const { keyId = "" } = useParams();
  // Text only, so a control character in the address is shown, not obeyed.
  usePageTitle(keyId === "" ? "Key" : `Key ${revealBidiControls(keyId.slice(0, 40))}`);
  const connection = useRequiredConnection();
  const reenterKey = useForgetKey();
  const now = useNow();
  useKeyChangesFromOtherTabs(connection);

  if (!isPlausibleKeyId(keyId)) return <NotAKeyId keyId={keyId} keysHref={paths.keys} />;

  return (
    <>
      <OfflineNotice />
      <QueryErrorResetBoundary>
        {({ reset }) => (
          <ErrorBoundary
            onReset={reset}
            resetKeys={[connection, keyId]}
            fallbackRender={({ error, resetErrorBoundary }) => (
              <div className="keys-error key-route__error">
                <ErrorPanel
                  error={error}
                  baseUrl={connection.baseUrl}
                  onRetry={resetErrorBoundary}
                  onReenterKey={reenterKey}
                  troubleshootHref={TROUBLESHOOT_PATH}
                />
              </div>
            )}
          >
            <KeyPage
              // One key's page state (an open dialog, a usage window, a typed tag, paged refusals) is never another's:
              // the route stays mounted from one key id to the next, and a cached key draws at once.
              key={keyId}
              connection={connection}
              keyId={keyId}
              now={now}
              keysHref={paths.keys}
              identityHref={identityPath}
              lookupHref={requestLookupPath}
              renderExplanation={(outcome, apiKey, latest) => (
                <OutcomeExplanation facts={verificationFacts(outcome, apiKey, latest)} now={now} />
              )}
              renderAnalyticsError={(error, onRetry) => <AnalyticsErrorNotice error={error} onRetry={onRetry} />}
              renderActions={(apiKey, refusedAs) => (
                <KeyActionsSlot connection={connection} apiKey={apiKey} refusedAs={refusedAs} now={now} />
              )}
            />
          </ErrorBoundary>
        )}
      </QueryErrorResetBoundary>
    </>
  );
}
