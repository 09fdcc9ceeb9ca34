import { useQueries } from "@tanstack/react-query";
import { ApiError, NetworkError, TimeoutError } from "@/lib/api-errors";
import type { Role } from "@/lib/api/key-changes";
import type { Connection } from "@/lib/api/transport";
import { roleQueryOptions } from "@/lib/catalogue-query";

/**
 * The roles named (a key's, and those picked for it), each with its permissions: one `permissions.getRole` each, all
 * at once, each kept under the role's own query key (a role's page shares it). Undefined until every one is read, and
 * when one cannot be (a root key without `rbac.*.read_role`): then what the key's roles give is not known.
 */
export function useRolesNamed(connection: Connection, names: readonly string[]): Role[] | undefined {
  const results = useQueries({
    queries: [...new Set(names)].map((name) => ({ ...roleQueryOptions(connection, name), retry: false })),
  });
  const roles = results.map((result) => result.data);
  return roles.every((role): role is Role => role !== undefined) ? roles : undefined;
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
