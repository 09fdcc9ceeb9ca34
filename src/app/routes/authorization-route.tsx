import { useCallback, useMemo } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { OfflineNotice } from "../../components/offline-notice";
import { AuthorizationPage } from "../../features/authorization/components/authorization-page";
import {
  authorizationSearch,
  readAuthorizationView,
  type AuthorizationView,
} from "../../features/authorization/authorization-view";
import { paths, permissionPath, rolePath } from "../paths";
import { useRequiredConnection } from "../require-connection";
import { usePageTitle } from "../use-page-title";
import { useRenderChangeError } from "../use-render-change-error";

/**
 * The Authorization page, composed: the authorization feature lists and changes the catalogue, its view (which list,
 * the search) in the address; troubleshoot's panel says every failure.
 */
export function AuthorizationRoute() {
  const connection = useRequiredConnection();
  const navigate = useNavigate();
  const { search } = useLocation();
  const view = useMemo(() => readAuthorizationView(new URLSearchParams(search)), [search]);
  usePageTitle(view.tab === "roles" ? "Roles" : "Permissions");
  const viewHref = useCallback((next: AuthorizationView) => `${paths.authorization}${authorizationSearch(next)}`, []);
  const renderError = useRenderChangeError(connection);

  return (
    <>
      <OfflineNotice />
      <AuthorizationPage
        connection={connection}
        view={view}
        onView={(next, options) => void navigate(viewHref(next), { replace: options?.replace === true })}
        viewHref={viewHref}
        roleHref={rolePath}
        permissionHref={permissionPath}
        onOpenRole={(roleId) => void navigate(rolePath(roleId))}
        onOpenPermission={(permissionId) => void navigate(permissionPath(permissionId))}
        renderError={renderError}
      />
    </>
  );
}
