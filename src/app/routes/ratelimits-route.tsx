import { OfflineNotice } from "../../components/offline-notice";
import { NamespacesPage } from "../../features/ratelimits/components/namespaces-page";
import { namespacePath } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { usePageTitle } from "../use-page-title";
import { useRenderChangeError } from "../use-render-change-error";

/** The Rate limits section, composed: the namespaces this browser knows, each a link to its page; failures in the troubleshoot panel. */
export function RatelimitsRoute() {
  usePageTitle("Rate limits");
  const connection = useRequiredConnection();
  const renderError = useRenderChangeError(connection);
  return (
    <>
      <OfflineNotice />
      <NamespacesPage connection={connection} namespaceHref={namespacePath} renderError={renderError} />
    </>
  );
}
