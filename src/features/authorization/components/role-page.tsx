import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "react-router-dom";
import { SafeName } from "@/components/safe-name";
import type { ProbeAnswer } from "@/lib/access-probe";
import type { Permission, Role } from "@/lib/api/key-changes";
import { isApiErrorOf } from "@/lib/api-errors";
import type { Connection } from "@/lib/api/transport";
import { roleQueryOptions } from "@/lib/catalogue-query";
import { rbacPermission } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { useCatalogueChangesFromOtherTabs } from "@/lib/hooks/use-catalogue-changes";
import { useDeleteRole } from "../api/catalogue-mutations";
import { probeDeleteRole, probeSetRolePermissions } from "../api/probes";
import { neededFor } from "../catalogue-access";
import { slugOf } from "../catalogue-facts";
import { useCheckedOpen } from "../hooks/use-checked-open";
import { CatalogueList } from "./catalogue-list";
import { DeleteCatalogueDialog } from "./delete-dialog";
import { CheckedAction, EntryBreadcrumb, EntryFact, EntryFacts, EntryUnread } from "./entry-parts";
import { RolePermissionsDialog } from "./role-permissions-dialog";
import type { RenderError } from "./render-error";
import "./authorization.css";

export interface RolePageProps {
  connection: Connection;
  /** The role's id (or name) from the address. */
  role: string;
  authorizationHref: string;
  rolesHref: string;
  permissionHref: (permissionId: string) => string;
  renderError: RenderError;
  /** The role was deleted: its page is left. */
  onDeleted: () => void;
}

type Open = { dialog: "permissions"; answer: ProbeAnswer } | { dialog: "delete"; answer: ProbeAnswer } | null;

/** A role's page: its facts, its permissions (set in one dialog), what deleting it does, and Delete. */
export function RolePage(props: RolePageProps) {
  const { connection, role: named } = props;
  useCatalogueChangesFromOtherTabs();
  const query = useQuery(roleQueryOptions(connection, named));
  // Gone since it was shown (deleted in another tab, or by another client): said, not shown as it was.
  if (query.data === undefined || isApiErrorOf(query.error, "data:role_not_found")) {
    return (
      <div className="entry-page">
        <EntryBreadcrumb authorizationHref={props.authorizationHref} listHref={props.rolesHref} list="Roles">
          {named}
        </EntryBreadcrumb>
        <EntryUnread
          error={query.error}
          what="role"
          needs={rbacPermission("read_role")}
          onRetry={() => void query.refetch()}
          renderError={props.renderError}
        />
      </div>
    );
  }
  return <RoleContent {...props} role={query.data} />;
}

function RoleContent({
  connection,
  role,
  authorizationHref,
  rolesHref,
  permissionHref,
  renderError,
  onDeleted,
}: Omit<RolePageProps, "role"> & { role: Role }) {
  const id = useId();
  const [open, setOpen] = useState<Open>(null);
  const checked = useCheckedOpen();
  const deletion = useDeleteRole(connection);
  const permissions = role.permissions ?? [];

  return (
    <div className="entry-page">
      <EntryBreadcrumb authorizationHref={authorizationHref} listHref={rolesHref} list="Roles">
        {role.name}
      </EntryBreadcrumb>
      <h1 className="entry-page__title">
        <SafeName>{role.name}</SafeName>
      </h1>
      <EntryFacts id={role.id} idLabel="role id">
        <EntryFact term="Description">
          {role.description === undefined || role.description === "" ? (
            <span className="facts__none">None</span>
          ) : (
            <SafeName>{role.description}</SafeName>
          )}
        </EntryFact>
      </EntryFacts>
      <div className="entry-page__actions" role="group" aria-label="Role actions">
        <CheckedAction
          connection={connection}
          action="set_role_permissions"
          label="Set permissions"
          what="Setting a role’s permissions"
          checking={checked.checking}
          onClick={() =>
            void checked.open(
              () => probeSetRolePermissions(connection),
              (answer) => setOpen({ dialog: "permissions", answer }),
            )
          }
        />
        <CheckedAction
          connection={connection}
          action="delete_role"
          label="Delete role"
          what="Deleting a role"
          checking={checked.checking}
          danger
          onClick={() =>
            void checked.open(
              () => probeDeleteRole(connection),
              (answer) => setOpen({ dialog: "delete", answer }),
            )
          }
        />
      </div>

      <section className="entry-page__section" aria-labelledby={`${id}-permissions`}>
        <h2 id={`${id}-permissions`}>Permissions</h2>
        {permissions.length === 0 ? (
          <p>None: a key holding this role gets no permission from it.</p>
        ) : (
          <>
            <p className="field__hint">
              {formatCount(permissions.length)} {permissions.length === 1 ? "permission" : "permissions"}: every key
              holding the role holds {permissions.length === 1 ? "it" : "them"}, as if given directly.
            </p>
            <CatalogueList<Permission>
              label="The role’s permissions"
              items={permissions}
              keyOf={(permission) => permission.id}
              hasMore={false}
              onNearEnd={noMore}
              renderRow={(permission, link) => (
                <div className="catalogue-row">
                  <Link to={permissionHref(permission.id)} className="catalogue-row__link" {...link}>
                    <code>
                      <SafeName withTitle>{slugOf(permission)}</SafeName>
                    </code>
                  </Link>
                  <span className="catalogue-row__detail">
                    <SafeName>
                      {[permission.name, permission.description]
                        .filter((part) => part !== undefined && part !== "" && part !== slugOf(permission))
                        .join(" · ")}
                    </SafeName>
                  </span>
                </div>
              )}
            />
          </>
        )}
      </section>

      <section className="entry-page__section" aria-labelledby={`${id}-keys`}>
        <h2 id={`${id}-keys`}>Keys holding it</h2>
        <p>
          The service lists no keys by role, so which keys hold it is not shown here: a key’s page says its roles, and
          its Permissions and roles gives or takes this one.
        </p>
      </section>

      {open?.dialog === "permissions" && (
        <RolePermissionsDialog
          connection={connection}
          role={role}
          permissionUnknown={open.answer === "unknown"}
          renderError={renderError}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.dialog === "delete" && (
        <DeleteCatalogueDialog
          title="Delete role"
          confirmation={role.name}
          unknown={
            open.answer === "unknown" ? { what: "Deleting a role", permissions: neededFor("delete_role") } : undefined
          }
          pending={deletion.isPending}
          error={deletion.isError && renderError(deletion.error, () => deletion.mutate(role, { onSuccess: onDeleted }))}
          onDelete={() => deletion.mutate(role, { onSuccess: onDeleted })}
          onClose={() => setOpen(null)}
        >
          <RoleDeletion role={role} />
        </DeleteCatalogueDialog>
      )}
    </div>
  );
}

const noMore = () => undefined;

/** What deleting a role does, as the services do it. */
function RoleDeletion({ role }: { role: Role }) {
  const count = role.permissions?.length ?? 0;
  return (
    <>
      {count === 0 ? (
        <p>
          Every key holding <SafeName>{role.name}</SafeName> loses it at once; it gives them no permission now.
        </p>
      ) : (
        <p>
          Every key holding <SafeName>{role.name}</SafeName> loses it at once, and with it the{" "}
          {count === 1 ? "permission" : `${formatCount(count)} permissions`} it gives (a key keeps one it holds itself
          or through another role): from the next verification, one that asks for {count === 1 ? "it" : "one of them"}{" "}
          is refused as <code>INSUFFICIENT_PERMISSIONS</code>.
        </p>
      )}
      <p>
        The permissions stay in the workspace. The service lists no keys by role, so how many keys hold it cannot be
        said here. This cannot be undone: a role made again with the same name is a new role that no key holds.
      </p>
    </>
  );
}
