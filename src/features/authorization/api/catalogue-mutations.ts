import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { createPermission, type NewPermission } from "@/lib/api/create-permission";
import { createRole, type NewRole } from "@/lib/api/create-role";
import { deletePermission } from "@/lib/api/delete-permission";
import { deleteRole } from "@/lib/api/delete-role";
import type { Permission, Role } from "@/lib/api/key-changes";
import { setRolePermissions } from "@/lib/api/set-role-permissions";
import type { Connection } from "@/lib/api/transport";
import { catalogueChanged } from "@/lib/catalogue-changes";
import { useMutationOnceAtATime } from "@/lib/hooks/use-mutation-once-at-a-time";
import { queryKeys } from "@/lib/query-keys";
import { learnAnswer, type CatalogueAction } from "../catalogue-access";

/**
 * The catalogue's changes. Each one's answer teaches the ledger (allowed, or the permission refused); a change made
 * is read again here and told to the other tabs (src/lib/catalogue-changes.ts): the keys too when what they hold
 * changed with it. The reading again is started, not awaited: the dialog says what came as soon as it is here.
 */
function learning<T>(connection: Connection, action: CatalogueAction, request: () => Promise<T>): Promise<T> {
  return request().then(
    (answer) => {
      learnAnswer(connection, action);
      return answer;
    },
    (error: unknown) => {
      learnAnswer(connection, action, error);
      throw error;
    },
  );
}

const changed = (queryClient: QueryClient, keys: boolean) => void catalogueChanged(queryClient, { keys });

export function useCreatePermission(connection: Connection) {
  const queryClient = useQueryClient();
  return useMutationOnceAtATime({
    mutationFn: (permission: NewPermission) =>
      learning(connection, "create_permission", () => createPermission(connection, permission)),
    onSuccess: () => changed(queryClient, false),
  });
}

export function useCreateRole(connection: Connection) {
  const queryClient = useQueryClient();
  return useMutationOnceAtATime({
    mutationFn: (role: NewRole) => learning(connection, "create_role", () => createRole(connection, role)),
    onSuccess: () => changed(queryClient, false),
  });
}

/**
 * Keys holding it lose it (and roles too): the keys' queries are read again. Its own page's query is dropped, not read
 * again: it is gone, and its page is being left.
 */
export function useDeletePermission(connection: Connection) {
  const queryClient = useQueryClient();
  return useMutationOnceAtATime({
    mutationFn: (permission: Permission) =>
      learning(connection, "delete_permission", () => deletePermission(connection, permission.id)),
    onSuccess: (_answer, permission) => {
      for (const named of new Set([permission.id, permission.slug ?? permission.name]))
        queryClient.removeQueries({ queryKey: queryKeys.permissions.detail(connection, named), exact: true });
      changed(queryClient, true);
    },
  });
}

/** As useDeletePermission: keys holding the role lose it, and what it gave them. */
export function useDeleteRole(connection: Connection) {
  const queryClient = useQueryClient();
  return useMutationOnceAtATime({
    mutationFn: (role: Role) => learning(connection, "delete_role", () => deleteRole(connection, role.id)),
    onSuccess: (_answer, role) => {
      for (const named of new Set([role.id, role.name]))
        queryClient.removeQueries({ queryKey: queryKeys.roles.detail(connection, named), exact: true });
      changed(queryClient, true);
    },
  });
}

/** The role's permissions become the answer at once (its page shows them), then everything is read again. */
export function useSetRolePermissions(connection: Connection) {
  const queryClient = useQueryClient();
  return useMutationOnceAtATime({
    mutationFn: ({ role, permissions }: { role: Role; permissions: readonly string[] }) =>
      learning(connection, "set_role_permissions", () => setRolePermissions(connection, role.id, permissions)),
    onSuccess: ({ permissions }, { role }) => {
      const updated: Role = { ...role, permissions };
      for (const named of new Set([role.id, role.name]))
        queryClient.setQueryData(queryKeys.roles.detail(connection, named), updated);
      changed(queryClient, true);
    },
  });
}
