import { useNavigate, useParams, useSearchParams } from "react-router-dom";
import { OfflineNotice } from "../../components/offline-notice";
import { HISTORY_RANGES } from "../../features/ratelimits/components/history-section";
import { NamespacePage } from "../../features/ratelimits/components/namespace-page";
import { AnalyticsErrorNotice } from "../../features/troubleshoot/components/analytics-error-notice";
import { useNow } from "../../lib/hooks/use-now";
import type { PresetId } from "../../lib/time-range";
import { paths } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { usePageTitle } from "../use-page-title";
import { useRenderChangeError } from "../use-render-change-error";

const DEFAULT_RANGE: PresetId = "24h";

/**
 * A namespace's page, composed: the ratelimits feature shows its overrides and history, the history's range in the
 * address (`?range=7d`, each change a step in the history); troubleshoot explains each failure.
 */
export function NamespaceRoute() {
  const namespace = useParams().namespace ?? "";
  usePageTitle(`${namespace} · Rate limits`);
  const connection = useRequiredConnection();
  const now = useNow();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const asked = search.get("range");
  const rangeId = HISTORY_RANGES.find((id) => id === asked) ?? DEFAULT_RANGE;
  const renderError = useRenderChangeError(connection);

  return (
    <>
      <OfflineNotice />
      <NamespacePage
        // A new namespace is a new page: nothing of the last one's dialogs or state stays.
        key={namespace}
        connection={connection}
        namespace={namespace}
        now={now}
        rangeId={rangeId}
        onRange={(id) => setSearch(id === DEFAULT_RANGE ? {} : { range: id })}
        listHref={paths.ratelimits}
        onForgotten={() => void navigate(paths.ratelimits)}
        renderError={renderError}
        renderAnalyticsError={(error, onRetry) => <AnalyticsErrorNotice error={error} onRetry={onRetry} />}
      />
    </>
  );
}
