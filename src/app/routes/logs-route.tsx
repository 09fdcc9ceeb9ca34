import { useCallback, useMemo } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { OfflineNotice } from "../../components/offline-notice";
import { LogsPage } from "../../features/logs/components/logs-page";
import { logViewSearch, readLogView, type LogView } from "../../features/logs/log-view";
import { AnalyticsErrorNotice } from "../../features/troubleshoot/components/analytics-error-notice";
import { useNow } from "../../lib/hooks/use-now";
import { LogKeyNow } from "../log-key-now";
import { keyPath, paths, requestLookupPath } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { usePageTitle } from "../use-page-title";

/**
 * The Logs page, composed: the logs feature lists and charts the verifications, its view read from and written to the
 * address (each filter a step in the history); troubleshoot explains each refusal of analytics and each outcome; a
 * row's details carry the key's verdict as its page says it.
 */
export function LogsRoute() {
  usePageTitle("Logs");
  const connection = useRequiredConnection();
  const now = useNow();
  const navigate = useNavigate();
  const { search } = useLocation();
  const read = useMemo(() => readLogView(new URLSearchParams(search)), [search]);
  const viewHref = useCallback((view: LogView) => `${paths.logs}${logViewSearch(view)}`, []);

  return (
    <>
      <OfflineNotice />
      <LogsPage
        connection={connection}
        now={now}
        view={read.view}
        dropped={read.dropped}
        onView={(view, options) => void navigate(viewHref(view), { replace: options?.replace === true })}
        viewHref={viewHref}
        keyHref={keyPath}
        lookupHref={requestLookupPath}
        renderAnalyticsError={(error, onRetry) => <AnalyticsErrorNotice error={error} onRetry={onRetry} />}
        renderKeyNow={(row) => <LogKeyNow connection={connection} row={row} now={now} />}
      />
    </>
  );
}
