import { useCallback } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { OfflineNotice } from "../../components/offline-notice";
import { IdentitiesPage } from "../../features/identities/components/identities-page";
import { identityPath } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { usePageTitle } from "../use-page-title";
import { useRenderChangeError } from "../use-render-change-error";

/** The search in the address: `?search=user_`. */
const SEARCH = "search";

/**
 * The Identities page, composed: the identities feature lists and creates them, the search in the address (so that a
 * link or Back reopens it); troubleshoot's panel says any failure, with Re-enter key.
 */
export function IdentitiesRoute() {
  usePageTitle("Identities");
  const connection = useRequiredConnection();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const renderError = useRenderChangeError(connection);
  const onSearch = useCallback(
    (search: string) => setParams(search === "" ? {} : { [SEARCH]: search }, { replace: true }),
    [setParams],
  );
  return (
    <>
      <OfflineNotice />
      <IdentitiesPage
        connection={connection}
        search={params.get(SEARCH)?.trim() ?? ""}
        onSearch={onSearch}
        identityHref={identityPath}
        onCreated={(identityId) => void navigate(identityPath(identityId))}
        renderError={renderError}
      />
    </>
  );
}
