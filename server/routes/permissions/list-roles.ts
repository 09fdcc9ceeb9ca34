import { rbacRule } from "../../auth/permissions";
import { parsePermissionList } from "../../db/rbac";
import type { ApiDependencies } from "../../http/api-env";
import { containsPattern, pagedList } from "../paged-list";
import { roleJson } from "./catalogue-json";

interface RoleListRow {
  id: string;
  name: string;
  description: string | null;
  permissions: string;
}

/** `POST /v2/permissions.listRoles` (`rbac.*.read_role`): each role with its permissions; `search` finds part of an id, name or description. */
export function listRoles(deps: ApiDependencies) {
  return pagedList<RoleListRow>(deps, {
    read: (db, workspaceId, { cursor, search, limit }) =>
      db
        .prepare<{ workspaceId: string; cursor: string; pattern: string; limit: number }, RoleListRow>(
          `SELECT id, name, description, permissions FROM roles
            WHERE workspace_id = :workspaceId AND id > :cursor
              AND (id LIKE :pattern ESCAPE '\\' OR name LIKE :pattern ESCAPE '\\' OR description LIKE :pattern ESCAPE '\\')
            ORDER BY id LIMIT :limit`,
        )
        .all({ workspaceId, cursor: cursor ?? "", pattern: containsPattern(search), limit: limit + 1 }),
    permission: rbacRule("read_role"),
    toJson: (db, workspaceId, row) =>
      roleJson(db, workspaceId, { ...row, permissions: parsePermissionList(row.permissions) }),
  });
}
