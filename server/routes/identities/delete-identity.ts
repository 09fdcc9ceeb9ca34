import * as v from "valibot";
import { anyIdentityRule } from "../../auth/permissions";
import { deleteIdentity as deleteStoredIdentity } from "../../db/identities";
import { metaAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { IDENTITY_FIXES, identityField } from "./identity-fields";
import { identityNotFound } from "./identity-json";

const DELETE_IDENTITY = {
  schema: v.strictObject({ identity: identityField }),
  fixes: { identity: IDENTITY_FIXES.identity },
  example: '{"identity": "user_123"}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/identities.deleteIdentity` (`identity.*.delete_identity`): as the real service, the identity is found by
 * nothing from then on and its keys lose it (and its shared rate limits); they stay, and verify as keys of no identity.
 * Answers `{meta}` alone.
 */
export function deleteIdentity(deps: ApiDependencies) {
  return operation(
    deps,
    { body: DELETE_IDENTITY, permission: (_, rootKey) => anyIdentityRule("delete_identity", rootKey.workspaceId) },
    async (c) => {
      const { identity } = c.req.valid("json");
      const workspaceId = c.get("rootKey").workspaceId;
      await deps.store.change((db) => {
        if (!deleteStoredIdentity(db, workspaceId, identity)) throw identityNotFound();
      });
      return metaAnswer(c);
    },
  );
}
