import type { Database } from "better-sqlite3";
import { findNamespace, type NamespaceRow } from "../../db/ratelimits";
import { ApiRefusal } from "../../http/api-refusal";

/** The override operations' namespace: a live one of the workspace, by name or id, else the real service's 404. */
export function liveNamespace(db: Database, workspaceId: string, nameOrId: string): NamespaceRow {
  const namespace = findNamespace(db, workspaceId, nameOrId);
  if (namespace === undefined || namespace.deletedAt !== null)
    throw new ApiRefusal("err:svc:data:ratelimit_namespace_not_found");
  return namespace;
}
