import { QueryErrorResetBoundary, useQueryClient } from "@tanstack/react-query";
import { ErrorBoundary } from "react-error-boundary";
import { saveTarget } from "../../features/connect/key-store";
import { KeysList } from "../../features/keys/components/keys-list";
import { KeysPageShell } from "../../features/keys/components/keys-page-shell";
import { LazyErrorPanel as ErrorPanel } from "../../features/troubleshoot/components/lazy-error-panel";
import { LazyRefreshErrorNotice as RefreshErrorNotice } from "../../features/troubleshoot/components/lazy-refresh-error-notice";
import { useOnline } from "../../lib/hooks/use-online";
import { LazyBulkKeyActions } from "../bulk/lazy-bulk-key-actions";
import { CreateKeyButton } from "../create-key-button";
import { TROUBLESHOOT_PATH } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { useForgetKey } from "../use-forget-key";
import { useKeyChangesFromOtherTabs } from "../use-key-changes-from-other-tabs";
import { usePageTitle } from "../use-page-title";

/**
 * The Keys page, composed: the keys feature lists, the troubleshoot feature explains a refusal.
 * A first load that fails throws to the boundary (nothing to show but the panel); a failed refresh
 * keeps the loaded keys on screen under a one-line notice that opens the panel.
 */
export function KeysRoute() {
  usePageTitle("Keys");
  const connection = useRequiredConnection();
  const reenterKey = useForgetKey();
  const queryClient = useQueryClient();
  useKeyChangesFromOtherTabs(connection);
  // A first load refused offline (the list asks at once, to say so: issue 14.7) is asked again when the connection
  // comes back, as the list's refresh is: the panel would go on saying "You are offline".
  const online = useOnline();
  // A per-API server's API ID, given in the panel: the connection changes, so the boundary resets and lists again.
  const chooseApiId = (apiId: string) => {
    saveTarget(connection.baseUrl, apiId);
    queryClient.clear();
  };

  return (
    <KeysPageShell
      baseUrl={connection.baseUrl}
      apiId={connection.apiId}
      actions={<CreateKeyButton connection={connection} />}
    >
      <QueryErrorResetBoundary>
        {({ reset }) => (
          <ErrorBoundary
            onReset={reset}
            resetKeys={[connection, online]}
            fallbackRender={({ error, resetErrorBoundary }) => (
              <div className="keys-error">
                <ErrorPanel
                  error={error}
                  baseUrl={connection.baseUrl}
                  onRetry={resetErrorBoundary}
                  onReenterKey={reenterKey}
                  onApiId={chooseApiId}
                  troubleshootHref={TROUBLESHOOT_PATH}
                />
              </div>
            )}
          >
            <KeysList
              connection={connection}
              renderBulkActions={(keys) => <LazyBulkKeyActions connection={connection} keys={keys} />}
              renderRefreshError={({ error, action, onRetry }) => (
                <RefreshErrorNotice
                  error={error}
                  action={action}
                  baseUrl={connection.baseUrl}
                  onRetry={onRetry}
                  onReenterKey={reenterKey}
                  troubleshootHref={TROUBLESHOOT_PATH}
                />
              )}
            />
          </ErrorBoundary>
        )}
      </QueryErrorResetBoundary>
    </KeysPageShell>
  );
}
