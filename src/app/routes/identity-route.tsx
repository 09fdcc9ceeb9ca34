import { useNavigate, useParams } from "react-router-dom";
import { OfflineNotice } from "../../components/offline-notice";
import { IdentityPage } from "../../features/identities/components/identity-page";
import { AnalyticsErrorNotice } from "../../features/troubleshoot/components/analytics-error-notice";
import { revealBidiControls } from "../../lib/bidi";
import { useNow } from "../../lib/hooks/use-now";
import { logLinkSearch, type LogLink } from "../../lib/log-link";
import { keyPath, paths } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { useActiveEnvironment } from "../use-active-environment";
import { usePageTitle } from "../use-page-title";
import { useRenderChangeError } from "../use-render-change-error";

const logsHref = (link: LogLink) => `${paths.logs}${logLinkSearch(link)}`;

/**
 * An identity's page, composed: the identities feature shows it, its keys and its verifications; the saved
 * environments of this base URL lend the APIs they name to the search of its keys; troubleshoot explains a failure
 * and why analytics cannot be read; links lead to its keys' pages and to the Logs page narrowed to it.
 */
export function IdentityRoute() {
  const { identityId = "" } = useParams();
  usePageTitle(identityId === "" ? "Identity" : `Identity ${revealBidiControls(identityId.slice(0, 40))}`);
  const connection = useRequiredConnection();
  const navigate = useNavigate();
  const now = useNow();
  const renderError = useRenderChangeError(connection);
  const { environments } = useActiveEnvironment();
  const suggestedApis = environments.flatMap((environment) =>
    environment.baseUrl === connection.baseUrl && environment.apiId !== undefined
      ? [{ apiId: environment.apiId, from: `environment “${environment.name}”` }]
      : [],
  );
  return (
    <>
      <OfflineNotice />
      <IdentityPage
        // One identity's state (an open dialog, a window, APIs added) is never another's.
        key={identityId}
        connection={connection}
        identityId={identityId}
        now={now}
        identitiesHref={paths.identities}
        keyHref={keyPath}
        logsHref={logsHref}
        suggestedApis={suggestedApis}
        renderError={renderError}
        renderAnalyticsError={(error, onRetry) => <AnalyticsErrorNotice error={error} onRetry={onRetry} />}
        onDeleted={() => void navigate(paths.identities, { replace: true })}
      />
    </>
  );
}
