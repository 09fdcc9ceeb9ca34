import { useQuery } from "@tanstack/react-query";
import { ApiError, NetworkError, TimeoutError } from "@/lib/api-errors";
import { listPermissions } from "@/lib/api/list-permissions";
import { listRoles } from "@/lib/api/list-roles";
import type { Connection } from "@/lib/api/transport";
import { queryKeys } from "@/lib/query-keys";

/** As many names as one request lists: a longer catalogue is typed. */
const CHOICES = { limit: 100 };

/** The workspace's permissions to pick from (the first 100); a root key that may not read them types names instead. */
export function useWorkspacePermissions(connection: Connection) {
  return useQuery({
    queryKey: queryKeys.permissions.list(connection, CHOICES),
    queryFn: async ({ signal }) => (await listPermissions(connection, CHOICES, { signal })).permissions,
    retry: false,
  });
}

export function useWorkspaceRoles(connection: Connection) {
  return useQuery({
    queryKey: queryKeys.roles.list(connection, CHOICES),
    queryFn: async ({ signal }) => (await listRoles(connection, CHOICES, { signal })).roles,
    retry: false,
  });
}

/**
 * Why the workspace's `noun` ("permissions", "roles") are not offered, said where they are typed instead; undefined
 * when they were listed. A refusal for want of permission is said as one; any other failure (a disabled root key, a
 * server down) by what it was, never as a missing permission.
 */
export function choicesUnlisted(error: Error | null, noun: "permissions" | "roles"): string | undefined {
  if (error === null) return undefined;
  if (error instanceof ApiError && error.status === 403 && error.type.includes("insufficient_permissions")) {
    return `This root key may not list the workspace’s ${noun}; type the names.`;
  }
  const why =
    error instanceof ApiError
      ? `the API answered ${error.status} ${error.title}`
      : error instanceof NetworkError || error instanceof TimeoutError
        ? "the API did not answer"
        : "its answer could not be read";
  return `The workspace’s ${noun} could not be listed (${why}); type the names.`;
}
