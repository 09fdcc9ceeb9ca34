import { rbacRule } from "../../auth/permissions";
import type { PermissionRow } from "../../db/rbac";
import type { ApiDependencies } from "../../http/api-env";
import { containsPattern, pagedList } from "../paged-list";
import { withDescription, type DescribedRow } from "./described-row";

/** `POST /v2/permissions.listPermissions` (`rbac.*.read_permission`): `search` finds part of an id, name, slug or description. */
export function listPermissions(deps: ApiDependencies) {
  return pagedList<DescribedRow<PermissionRow>>(deps, {
    read: (db, workspaceId, { cursor, search, limit }) =>
      db
        .prepare<{ workspaceId: string; cursor: string; pattern: string; limit: number }, DescribedRow<PermissionRow>>(
          `SELECT id, name, slug, description FROM permissions
            WHERE workspace_id = :workspaceId AND id > :cursor
              AND (id LIKE :pattern ESCAPE '\\' OR name LIKE :pattern ESCAPE '\\' OR slug LIKE :pattern ESCAPE '\\'
                   OR description LIKE :pattern ESCAPE '\\')
            ORDER BY id LIMIT :limit`,
        )
        .all({ workspaceId, cursor: cursor ?? "", pattern: containsPattern(search), limit: limit + 1 }),
    permission: rbacRule("read_permission"),
    toJson: (_db, _workspaceId, { description, ...row }) => withDescription(row, description),
  });
}
