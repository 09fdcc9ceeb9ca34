import * as v from "valibot";
import { requirePermission } from "../../auth/permissions";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { IDENTITY_FIXES, identityField } from "./identity-fields";
import { identityJson, identityNotFound, readIdentityRule, type IdentityRow } from "./identity-json";

const GET_IDENTITY = {
  schema: v.strictObject({
    identity: identityField,
  }),
  fixes: { identity: IDENTITY_FIXES.identity },
  example: '{"identity": "user_123"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/identities.getIdentity`: by id or external id; 404 before the permission check, as the real service. */
export function getIdentity(deps: ApiDependencies) {
  return operation(deps, { body: GET_IDENTITY }, (c) => {
    const { identity } = c.req.valid("json");
    const rootKey = c.get("rootKey");
    const found = deps.store.read((db) => {
      const row = db
        .prepare<[string, string, string], IdentityRow>(
          "SELECT id, external_id AS externalId, meta FROM identities WHERE workspace_id = ? AND (id = ? OR external_id = ?) AND deleted_at IS NULL",
        )
        .get(rootKey.workspaceId, identity, identity);
      if (row === undefined) throw identityNotFound();
      requirePermission(rootKey.permissions, readIdentityRule(rootKey.workspaceId, row.id));
      return identityJson(db, row);
    });
    return dataAnswer(c, found);
  });
}
