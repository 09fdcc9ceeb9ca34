import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Link } from "react-router-dom";
import { PermissionRefusalNote } from "@/components/access-notes";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import { isPermissionRefusal, type ProbeAnswer } from "@/lib/access-probe";
import type { Permission, Role } from "@/lib/api/key-changes";
import { isApiErrorOf } from "@/lib/api-errors";
import type { Connection } from "@/lib/api/transport";
import { CATALOGUE_PAGE_SIZE, permissionQueryOptions, rolePagesQueryOptions } from "@/lib/catalogue-query";
import { rbacPermission } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { useCatalogueChangesFromOtherTabs } from "@/lib/hooks/use-catalogue-changes";
import { useDeletePermission } from "../api/catalogue-mutations";
import { probeDeletePermission } from "../api/probes";
import { neededFor } from "../catalogue-access";
import { rolesHolding, slugOf } from "../catalogue-facts";
import { useCheckedOpen } from "../hooks/use-checked-open";
import { CatalogueList } from "./catalogue-list";
import { DeleteCatalogueDialog } from "./delete-dialog";
import { CheckedAction, EntryBreadcrumb, EntryFact, EntryFacts, EntryUnread } from "./entry-parts";
import type { RenderError } from "./render-error";
import "./authorization.css";

export interface PermissionPageProps {
  connection: Connection;
  /** The permission's id (or slug) from the address. */
  permission: string;
  authorizationHref: string;
  permissionsHref: string;
  roleHref: (roleId: string) => string;
  renderError: RenderError;
  /** The permission was deleted: its page is left. */
  onDeleted: () => void;
}

/**
 * A permission's page: its facts, the roles that hold it (found by reading every role: no operation lists the roles
 * of one permission), what deleting it does, and Delete. The permission and the first roles are asked at once.
 */
export function PermissionPage(props: PermissionPageProps) {
  const { connection, permission: named } = props;
  useCatalogueChangesFromOtherTabs();
  const query = useQuery(permissionQueryOptions(connection, named));
  // Started with the permission, not after it: the page's first data in one round.
  const roles = useEveryRole(connection);
  // Gone since it was shown (deleted in another tab, or by another client): said, not shown as it was.
  if (query.data === undefined || isApiErrorOf(query.error, "data:permission_not_found")) {
    return (
      <div className="entry-page">
        <EntryBreadcrumb
          authorizationHref={props.authorizationHref}
          listHref={props.permissionsHref}
          list="Permissions"
        >
          {named}
        </EntryBreadcrumb>
        <EntryUnread
          error={query.error}
          what="permission"
          needs={rbacPermission("read_permission")}
          onRetry={() => void query.refetch()}
          renderError={props.renderError}
        />
      </div>
    );
  }
  return <PermissionContent {...props} permission={query.data} roles={roles} />;
}

type EveryRole = ReturnType<typeof useEveryRole>;

/**
 * How many pages of roles the page reads by itself (2,000 roles): past that, each further 20 requests are asked for,
 * so that a workspace of many thousands of roles does not spend its root key's rate limit unasked.
 */
export const ROLE_PAGES_UNASKED = 20;

/**
 * Every role of the workspace with its permissions: `permissions.listRoles`, page after page (100 roles a request),
 * up to `ROLE_PAGES_UNASKED` more at a time. The pages are the Roles list's own (the same query), so what one read the
 * other shows.
 */
function useEveryRole(connection: Connection) {
  const query = useInfiniteQuery({ ...rolePagesQueryOptions(connection, ""), placeholderData: keepPreviousData });
  const [allowed, setAllowed] = useState(ROLE_PAGES_UNASKED);
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  const requests = query.data?.pages.length ?? 0;
  const paused = hasNextPage && requests >= allowed;
  // On each page come (`requests`: a fetch's start and end may show in one render, its count always changes).
  useEffect(() => {
    if (hasNextPage && !paused && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [requests, hasNextPage, paused, isFetchingNextPage, isError, fetchNextPage]);
  const roles = query.data?.pages.flatMap((page) => page.roles);
  return {
    /** Every role, once the last page is here. */
    all: roles !== undefined && !hasNextPage ? roles : undefined,
    /** The roles read so far. */
    some: roles ?? [],
    requests,
    /** Reading stopped at its bound: `readOn` goes on. */
    paused,
    readOn: () => setAllowed(requests + ROLE_PAGES_UNASKED),
    error: query.error,
    retry: () => void (query.data === undefined ? query.refetch() : query.fetchNextPage()),
  };
}

function PermissionContent({
  connection,
  permission,
  roles,
  authorizationHref,
  permissionsHref,
  roleHref,
  renderError,
  onDeleted,
}: Omit<PermissionPageProps, "permission"> & { permission: Permission; roles: EveryRole }) {
  const id = useId();
  const [deleting, setDeleting] = useState<ProbeAnswer | null>(null);
  const checked = useCheckedOpen();
  const deletion = useDeletePermission(connection);
  // Among the roles read so far; all of them once the last page is here.
  const holding = rolesHolding(roles.some, permission);
  const holders = roles.all === undefined ? undefined : holding;
  const slug = slugOf(permission);

  return (
    <div className="entry-page">
      <EntryBreadcrumb authorizationHref={authorizationHref} listHref={permissionsHref} list="Permissions">
        {permission.name}
      </EntryBreadcrumb>
      <h1 className="entry-page__title">
        <SafeName>{permission.name}</SafeName>
      </h1>
      <EntryFacts id={permission.id} idLabel="permission id">
        <EntryFact term="Slug">
          <code>
            <SafeName>{slug}</SafeName>
          </code>
        </EntryFact>
        <EntryFact term="Description">
          {permission.description === undefined || permission.description === "" ? (
            <span className="facts__none">None</span>
          ) : (
            <SafeName>{permission.description}</SafeName>
          )}
        </EntryFact>
      </EntryFacts>
      <p className="field__hint">
        A verification asks for it by its slug: <code>keys.verifyKey</code> with{" "}
        <code>
          permissions: &quot;<SafeName>{slug}</SafeName>&quot;
        </code>
        .
      </p>
      <div className="entry-page__actions" role="group" aria-label="Permission actions">
        <CheckedAction
          connection={connection}
          action="delete_permission"
          label="Delete permission"
          what="Deleting a permission"
          checking={checked.checking}
          danger
          onClick={() => void checked.open(() => probeDeletePermission(connection), setDeleting)}
        />
      </div>

      <section className="entry-page__section" aria-labelledby={`${id}-roles`}>
        <h2 id={`${id}-roles`}>Roles that hold it</h2>
        <HoldersBody
          roles={roles}
          holders={holders}
          holdingSoFar={holding.length}
          roleHref={roleHref}
          renderError={renderError}
        />
      </section>

      {deleting !== null && (
        <DeleteCatalogueDialog
          title="Delete permission"
          confirmation={slug}
          unknown={
            deleting === "unknown"
              ? { what: "Deleting a permission", permissions: neededFor("delete_permission") }
              : undefined
          }
          pending={deletion.isPending}
          error={
            deletion.isError && renderError(deletion.error, () => deletion.mutate(permission, { onSuccess: onDeleted }))
          }
          onDelete={() => deletion.mutate(permission, { onSuccess: onDeleted })}
          onClose={() => setDeleting(null)}
        >
          <PermissionDeletion slug={slug} holders={holders} />
        </DeleteCatalogueDialog>
      )}
    </div>
  );
}

/** The roles that hold it, how they were found and what that cost; or why they could not be. */
function HoldersBody({
  roles,
  holders,
  holdingSoFar,
  roleHref,
  renderError,
}: {
  roles: EveryRole;
  holders: Role[] | undefined;
  /** How many of the roles read so far hold it. */
  holdingSoFar: number;
  roleHref: (roleId: string) => string;
  renderError: RenderError;
}) {
  if (isPermissionRefusal(roles.error)) {
    return (
      <PermissionRefusalNote
        what="Finding the roles that hold it"
        permissions={[rbacPermission("read_role")]}
        detail={roles.error.detail}
        onCheckAgain={roles.retry}
      />
    );
  }
  if (roles.error !== null) return renderError(roles.error, roles.retry);
  const cost = (
    <p className="field__hint">
      Found by reading every role of the workspace ({formatCount(roles.some.length)}{" "}
      {roles.some.length === 1 ? "role" : "roles"} in {formatCount(roles.requests)}{" "}
      {roles.requests === 1 ? "request" : "requests"} of <code>permissions.listRoles</code>, {CATALOGUE_PAGE_SIZE} a
      request, each role with all its permissions): no operation lists the roles of one permission, so with many roles
      this page costs one request per {CATALOGUE_PAGE_SIZE} of them.
    </p>
  );
  if (roles.paused) {
    return (
      <div className="entry-page__paused" role="status">
        <p>
          Read {formatCount(roles.some.length)} roles in {formatCount(roles.requests)} requests so far, and the
          workspace has more. Reading on costs one request per {CATALOGUE_PAGE_SIZE} roles, each of the root key’s rate
          limit.
        </p>
        <button type="button" className="button" onClick={roles.readOn}>
          Read {formatCount(ROLE_PAGES_UNASKED * CATALOGUE_PAGE_SIZE)} more roles
        </button>
        <p>
          So far, {formatCount(holdingSoFar)} of them {holdingSoFar === 1 ? "holds" : "hold"} it.
        </p>
      </div>
    );
  }
  if (holders === undefined) {
    return (
      <p role="status">
        <Loading>{`Reading the workspace’s roles: ${formatCount(roles.some.length)} so far…`}</Loading>
      </p>
    );
  }
  return (
    <>
      {holders.length === 0 ? (
        <p>No role holds it: only keys given it directly have it.</p>
      ) : (
        <CatalogueList<Role>
          label="Roles that hold it"
          items={holders}
          keyOf={(role) => role.id}
          hasMore={false}
          onNearEnd={noMore}
          renderRow={(role, link) => (
            <div className="catalogue-row">
              <Link to={roleHref(role.id)} className="catalogue-row__link" {...link}>
                <SafeName withTitle>{role.name}</SafeName>
              </Link>
              <span className="catalogue-row__detail">
                {formatCount(role.permissions?.length ?? 0)}{" "}
                {(role.permissions?.length ?? 0) === 1 ? "permission" : "permissions"}
              </span>
            </div>
          )}
        />
      )}
      {cost}
    </>
  );
}

const noMore = () => undefined;

/** What deleting a permission does, as the services do it; the roles that hold it, when they were read. */
function PermissionDeletion({ slug, holders }: { slug: string; holders: Role[] | undefined }) {
  const shown = holders?.slice(0, 10) ?? [];
  return (
    <>
      <p>
        <code>
          <SafeName>{slug}</SafeName>
        </code>{" "}
        is taken from every key that holds it directly and from every role that holds it
        {holders === undefined ? (
          " (which roles could not be read)"
        ) : holders.length === 0 ? (
          " (no role does)"
        ) : (
          <>
            {" "}
            ({formatCount(holders.length)}:{" "}
            {shown.map((role, index) => (
              <span key={role.id}>
                {index > 0 && ", "}
                <SafeName>{role.name}</SafeName>
              </span>
            ))}
            {holders.length > shown.length && `, and ${formatCount(holders.length - shown.length)} more`})
          </>
        )}
        , so keys given it by those roles lose it too. From the next verification, one that asks for it is refused as{" "}
        <code>INSUFFICIENT_PERMISSIONS</code>, whatever key it is.
      </p>
      <p>This cannot be undone: a permission made again with the same slug is a new one that no key or role holds.</p>
    </>
  );
}
