import { useNavigate, useParams } from "react-router-dom";
import { OfflineNotice } from "../../components/offline-notice";
import { authorizationSearch } from "../../features/authorization/authorization-view";
import { RolePage } from "../../features/authorization/components/role-page";
import { revealBidiControls } from "../../lib/bidi";
import { paths, permissionPath } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { usePageTitle } from "../use-page-title";
import { useRenderChangeError } from "../use-render-change-error";

const ROLES_HREF = `${paths.authorization}${authorizationSearch({ tab: "roles", search: "" })}`;

/** A role's page, composed: the authorization feature's, troubleshoot's panel for every failure. */
export function RoleRoute() {
  const { roleId = "" } = useParams();
  // Text only, so a control character in the address is shown, not obeyed.
  usePageTitle(`Role ${revealBidiControls(roleId.slice(0, 40))}`);
  const connection = useRequiredConnection();
  const navigate = useNavigate();
  const renderError = useRenderChangeError(connection);
  return (
    <>
      <OfflineNotice />
      <RolePage
        // One role's page state (an open dialog) is never another's.
        key={roleId}
        connection={connection}
        role={roleId}
        authorizationHref={paths.authorization}
        rolesHref={ROLES_HREF}
        permissionHref={permissionPath}
        renderError={renderError}
        onDeleted={() => void navigate(ROLES_HREF)}
      />
    </>
  );
}
