import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { PermissionRefusalNote } from "@/components/access-notes";
import { SafeName } from "@/components/safe-name";
import type { ProbeAnswer } from "@/lib/access-probe";
import type { Permission, Role } from "@/lib/api/key-changes";
import type { Connection } from "@/lib/api/transport";
import {
  permissionPagesQueryOptions,
  PERMISSIONS_READ,
  rolePagesQueryOptions,
  ROLES_READ,
} from "@/lib/catalogue-query";
import { formatCount } from "@/lib/format-number";
import { useCatalogueChangesFromOtherTabs } from "@/lib/hooks/use-catalogue-changes";
import { probeCreatePermission, probeCreateRole } from "../api/probes";
import { forgetRefusal, missingFor, useCatalogueRefusal, type CatalogueAction } from "../catalogue-access";
import { slugOf } from "../catalogue-facts";
import type { AuthorizationView } from "../authorization-view";
import { useAddressSearch } from "../hooks/use-address-search";
import { useCheckedOpen } from "../hooks/use-checked-open";
import { CatalogueTab } from "./catalogue-tab";
import { CreatePermissionDialog } from "./create-permission-dialog";
import { CreateRoleDialog } from "./create-role-dialog";
import type { RenderError } from "./render-error";
import "./authorization.css";

export interface AuthorizationPageProps {
  connection: Connection;
  view: AuthorizationView;
  /** Shows another view; `replace`: in the history entry's place (the search as it is typed). */
  onView: (view: AuthorizationView, options?: { replace?: boolean }) => void;
  viewHref: (view: AuthorizationView) => string;
  roleHref: (roleId: string) => string;
  permissionHref: (permissionId: string) => string;
  /** Goes to a role's or a permission's page (one just created). */
  onOpenRole: (roleId: string) => void;
  onOpenPermission: (permissionId: string) => void;
  renderError: RenderError;
}

const TABS = [
  { tab: "roles", label: "Roles" },
  { tab: "permissions", label: "Permissions" },
] as const;

/**
 * The Authorization section: the workspace's roles and permissions, each list searched on the server and paged by its
 * cursor as it is scrolled, with Create; each entry opens its page. Another tab's change is read again here.
 */
export function AuthorizationPage(props: AuthorizationPageProps) {
  const { view, viewHref } = props;
  useCatalogueChangesFromOtherTabs();
  return (
    <div className="authorization-page">
      <h1 className="authorization-page__title">Authorization</h1>
      <p className="authorization-page__lead">
        The workspace’s permissions, and the roles that group them. Keys hold both; a verification that asks for a
        permission (<code>keys.verifyKey</code> with <code>permissions</code>) passes when the key holds it, itself or
        through a role.
      </p>
      <nav className="authorization-tabs" aria-label="Roles and permissions">
        {TABS.map(({ tab, label }) => (
          <Link
            key={tab}
            to={viewHref({ tab, search: "" })}
            className="authorization-tabs__link"
            aria-current={view.tab === tab ? "page" : undefined}
          >
            {label}
          </Link>
        ))}
      </nav>
      {view.tab === "roles" ? <RolesTab key="roles" {...props} /> : <PermissionsTab key="permissions" {...props} />}
    </div>
  );
}

/** Create, checked before its form: a refusal is said in its place, with Check again. */
function CreateControl({
  connection,
  action,
  label,
  what,
  onCreate,
  checking,
  missing,
}: {
  connection: Connection;
  action: CatalogueAction;
  label: string;
  what: string;
  onCreate: () => void;
  checking: boolean;
  missing: boolean;
}) {
  const refusal = useCatalogueRefusal(connection, action);
  return (
    <div className="catalogue-tab__create">
      <button
        type="button"
        className="button button--primary"
        disabled={refusal !== undefined}
        aria-disabled={checking || undefined}
        onClick={onCreate}
      >
        {label}
      </button>
      {refusal !== undefined && (
        <PermissionRefusalNote
          what={what}
          permissions={[missingFor(action, refusal.detail)]}
          detail={refusal.detail}
          onCheckAgain={() => forgetRefusal(connection, action)}
        />
      )}
      {missing && (
        <p className="access-note" role="note">
          This service has no operation for it: it answered 404 for the operation itself, as a proxy to a deployment
          without it does.
        </p>
      )}
    </div>
  );
}

function RolesTab({ connection, view, onView, roleHref, onOpenRole, renderError }: AuthorizationPageProps) {
  const search = useAddressSearch(view.search, (text) => onView({ ...view, search: text }, { replace: true }));
  const query = useInfiniteQuery({
    ...rolePagesQueryOptions(connection, search.asked),
    placeholderData: keepPreviousData,
  });
  const roles = query.data?.pages.flatMap((page) => page.roles);
  const checked = useCheckedOpen();
  const [creating, setCreating] = useState<ProbeAnswer | null>(null);

  return (
    <>
      <CatalogueTab<Role>
        noun="role"
        plural="roles"
        read={ROLES_READ}
        connection={connection}
        text={search.text}
        onText={search.setText}
        asked={search.asked}
        items={roles}
        keyOf={(role) => role.id}
        renderRow={(role, link) => (
          <div className="catalogue-row">
            <Link to={roleHref(role.id)} className="catalogue-row__link" {...link}>
              <SafeName withTitle>{role.name}</SafeName>
            </Link>
            <span className="catalogue-row__detail">
              {countOf(role.permissions?.length ?? 0, "permission")}
              {role.description !== undefined && role.description !== "" && (
                <>
                  {" · "}
                  <SafeName>{role.description}</SafeName>
                </>
              )}
            </span>
          </div>
        )}
        pages={query}
        renderError={renderError}
        create={
          <CreateControl
            connection={connection}
            action="create_role"
            label="Create role"
            what="Creating a role"
            checking={checked.checking}
            missing={checked.missing}
            onCreate={() =>
              void checked.open(
                () => probeCreateRole(connection, roles?.[0]?.name),
                (answer) => setCreating(answer),
              )
            }
          />
        }
      />
      {creating !== null && (
        <CreateRoleDialog
          connection={connection}
          permissionUnknown={creating === "unknown"}
          renderError={renderError}
          onClose={() => setCreating(null)}
          onCreated={onOpenRole}
        />
      )}
    </>
  );
}

function PermissionsTab({
  connection,
  view,
  onView,
  permissionHref,
  onOpenPermission,
  renderError,
}: AuthorizationPageProps) {
  const search = useAddressSearch(view.search, (text) => onView({ ...view, search: text }, { replace: true }));
  const query = useInfiniteQuery({
    ...permissionPagesQueryOptions(connection, search.asked),
    placeholderData: keepPreviousData,
  });
  const permissions = query.data?.pages.flatMap((page) => page.permissions);
  const checked = useCheckedOpen();
  const [creating, setCreating] = useState<ProbeAnswer | null>(null);
  const first = permissions?.[0];

  return (
    <>
      <CatalogueTab<Permission>
        noun="permission"
        plural="permissions"
        read={PERMISSIONS_READ}
        connection={connection}
        text={search.text}
        onText={search.setText}
        asked={search.asked}
        items={permissions}
        keyOf={(permission) => permission.id}
        renderRow={(permission, link) => (
          <div className="catalogue-row">
            <Link to={permissionHref(permission.id)} className="catalogue-row__link" {...link}>
              <SafeName withTitle>{permission.name}</SafeName>
            </Link>
            <span className="catalogue-row__detail">
              {/* The slug under the name, unless the name is the slug. */}
              {slugOf(permission) !== permission.name && (
                <code>
                  <SafeName>{slugOf(permission)}</SafeName>
                </code>
              )}
              {slugOf(permission) !== permission.name && hasText(permission.description) && " · "}
              {hasText(permission.description) && <SafeName>{permission.description}</SafeName>}
            </span>
          </div>
        )}
        pages={query}
        renderError={renderError}
        create={
          <CreateControl
            connection={connection}
            action="create_permission"
            label="Create permission"
            what="Creating a permission"
            checking={checked.checking}
            missing={checked.missing}
            onCreate={() =>
              void checked.open(
                () => probeCreatePermission(connection, first === undefined ? undefined : slugOf(first)),
                (answer) => setCreating(answer),
              )
            }
          />
        }
      />
      {creating !== null && (
        <CreatePermissionDialog
          connection={connection}
          permissionUnknown={creating === "unknown"}
          renderError={renderError}
          onClose={() => setCreating(null)}
          onCreated={onOpenPermission}
        />
      )}
    </>
  );
}

function hasText(text: string | undefined): text is string {
  return text !== undefined && text !== "";
}

function countOf(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? "" : "s"}`;
}
