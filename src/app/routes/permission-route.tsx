import { useNavigate, useParams } from "react-router-dom";
import { OfflineNotice } from "../../components/offline-notice";
import { authorizationSearch } from "../../features/authorization/authorization-view";
import { PermissionPage } from "../../features/authorization/components/permission-page";
import { revealBidiControls } from "../../lib/bidi";
import { paths, rolePath } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { usePageTitle } from "../use-page-title";
import { useRenderChangeError } from "../use-render-change-error";

const PERMISSIONS_HREF = `${paths.authorization}${authorizationSearch({ tab: "permissions", search: "" })}`;

/** A permission's page, composed: the authorization feature's, troubleshoot's panel for every failure. */
export function PermissionRoute() {
  const { permissionId = "" } = useParams();
  // Text only, so a control character in the address is shown, not obeyed.
  usePageTitle(`Permission ${revealBidiControls(permissionId.slice(0, 40))}`);
  const connection = useRequiredConnection();
  const navigate = useNavigate();
  const renderError = useRenderChangeError(connection);
  return (
    <>
      <OfflineNotice />
      <PermissionPage
        key={permissionId}
        connection={connection}
        permission={permissionId}
        authorizationHref={paths.authorization}
        permissionsHref={PERMISSIONS_HREF}
        roleHref={rolePath}
        renderError={renderError}
        onDeleted={() => void navigate(PERMISSIONS_HREF)}
      />
    </>
  );
}
