import { useQuery } from "@tanstack/react-query";
import { listPermissions } from "../../../lib/api/list-permissions";
import { listRoles } from "../../../lib/api/list-roles";
import type { Connection } from "../../../lib/api/transport";
import { fingerprint } from "../../../lib/fingerprint";

function scope(connection: Connection) {
  return { baseUrl: connection.baseUrl, keyFingerprint: fingerprint(connection.apiKey) };
}

/** The workspace's permissions to pick from (the first 100); a root key that may not read them types names instead. */
export function useWorkspacePermissions(connection: Connection) {
  return useQuery({
    queryKey: ["workspace", "permissions", scope(connection)] as const,
    queryFn: async ({ signal }) => (await listPermissions(connection, { limit: 100 }, { signal })).permissions,
    retry: false,
  });
}

export function useWorkspaceRoles(connection: Connection) {
  return useQuery({
    queryKey: ["workspace", "roles", scope(connection)] as const,
    queryFn: async ({ signal }) => (await listRoles(connection, { limit: 100 }, { signal })).roles,
    retry: false,
  });
}
