import { identityPermission } from "../../../src/lib/contract";
import type { Database } from "better-sqlite3";
import { resources, type PermissionRule } from "../../auth/permissions";
import { ApiRefusal } from "../../http/api-refusal";

/** What the identities.* operations share: an identity's row, its JSON, reading it, and the 404 of one not found. */

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

/** An identity's row, as its JSON is written from. */
export function readIdentityRow(db: Database, identityId: string): IdentityRow {
  const row = db
    .prepare<[string], IdentityRow>("SELECT id, external_id AS externalId, meta FROM identities WHERE id = ?")
    .get(identityId);
  if (row === undefined) throw identityNotFound();
  return row;
}

/** The real service's 404 for an identity the workspace does not have, or no longer has. */
export function identityNotFound(): ApiRefusal {
  return new ApiRefusal("err:svc:data:identity_not_found", { detail: "This identity does not exist." });
}

export function requireLiveIdentity<T>(found: T | undefined): T {
  if (found === undefined) throw identityNotFound();
  return found;
}
