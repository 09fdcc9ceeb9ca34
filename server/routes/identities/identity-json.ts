import { identityPermission } from "../../../src/lib/contract";
import type { Database } from "better-sqlite3";
import { resources, type PermissionRule } from "../../auth/permissions";

/** What identities.listIdentities and identities.getIdentity share: an identity's row, its JSON, and reading it. */

export interface IdentityRow {
  id: string;
  externalId: string;
  meta: string | null;
}

interface IdentityRateLimitRow {
  id: string;
  name: string;
  limit: number;
  duration: number;
  autoApply: number;
}

export function identityJson(db: Database, row: IdentityRow): object {
  const limits = db
    .prepare<[string], IdentityRateLimitRow>(
      `SELECT id, name, "limit", duration_ms AS duration, auto_apply AS autoApply FROM identity_ratelimits WHERE identity_id = ? ORDER BY name`,
    )
    .all(row.id)
    .map((limit) => ({ ...limit, autoApply: limit.autoApply === 1 }));
  // meta is stored as JSON text of an object only (the table checks it).
  const meta: unknown = row.meta === null ? undefined : JSON.parse(row.meta);
  return {
    id: row.id,
    externalId: row.externalId,
    ...(meta !== undefined && { meta }),
    ...(limits.length > 0 && { ratelimits: limits }),
  };
}

/** `identity.*.read_identity`, the identity's own, or the URN of any identity of any project (as the real service). */
export function readIdentityRule(workspaceId: string, identityId: string): PermissionRule {
  return {
    oneOfEach: [[identityPermission("read_identity"), identityPermission("read_identity", identityId)]],
    resource: [resources.anyIdentity(workspaceId, "read_identity")],
  };
}
