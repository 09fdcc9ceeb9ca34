import { requirePermission } from "../../auth/permissions";
import type { ApiDependencies } from "../../http/api-env";
import { containsPattern, pagedList } from "../paged-list";
import { identityJson, readIdentityRule, type IdentityRow } from "./identity-json";

/** `POST /v2/identities.listIdentities`: every identity listed needs `identity.*.read_identity` or its own; `search` finds part of an id or external id. */
export function listIdentities(deps: ApiDependencies) {
  return pagedList<IdentityRow>(deps, {
    read: (db, workspaceId, { cursor, search, limit }) =>
      db
        .prepare<{ workspaceId: string; cursor: string; pattern: string; limit: number }, IdentityRow>(
          `SELECT id, external_id AS externalId, meta FROM identities
            WHERE workspace_id = :workspaceId AND deleted_at IS NULL AND id > :cursor
              AND (id LIKE :pattern ESCAPE '\\' OR external_id LIKE :pattern ESCAPE '\\')
            ORDER BY id LIMIT :limit`,
        )
        .all({ workspaceId, cursor: cursor ?? "", pattern: containsPattern(search), limit: limit + 1 }),
    authorizeRows: (permissions, rows, workspaceId) => {
      for (const row of rows) requirePermission(permissions, readIdentityRule(workspaceId, row.id));
    },
    toJson: (db, _workspaceId, row) => identityJson(db, row),
  });
}
