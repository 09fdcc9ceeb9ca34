import * as v from "valibot";
import { anyIdentityRule } from "../../auth/permissions";
import { findLiveIdentity, updateIdentity as updateStoredIdentity, type IdentityChange } from "../../db/identities";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { metaField, ratelimitListField } from "../keys/key-fields";
import { IDENTITY_FIXES, identityField, identityRateLimits } from "./identity-fields";
import { identityJson, readIdentityRow, requireLiveIdentity } from "./identity-json";

const UPDATE_IDENTITY = {
  schema: v.strictObject({
    identity: identityField,
    meta: v.optional(metaField),
    ratelimits: v.optional(ratelimitListField),
  }),
  fixes: IDENTITY_FIXES,
  example: '{"identity": "user_123", "meta": {"plan": "pro"}}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/identities.updateIdentity` (`identity.*.update_identity`): what is given replaces what the identity had
 * (an empty meta or list clears it); a rate limit kept by name keeps its counter. Answers the identity as it is now.
 */
export function updateIdentity(deps: ApiDependencies) {
  return operation(
    deps,
    { body: UPDATE_IDENTITY, permission: (_, rootKey) => anyIdentityRule("update_identity", rootKey.workspaceId) },
    async (c) => {
      const { identity, meta, ratelimits } = c.req.valid("json");
      const change: IdentityChange = {};
      if (ratelimits !== undefined) change.ratelimits = identityRateLimits(ratelimits);
      if (meta !== undefined) change.meta = meta;
      const workspaceId = c.get("rootKey").workspaceId;
      const updated = await deps.store.change((db) => {
        const found = requireLiveIdentity(findLiveIdentity(db, workspaceId, identity));
        updateStoredIdentity(db, found.id, change);
        return identityJson(db, readIdentityRow(db, found.id));
      });
      return dataAnswer(c, updated);
    },
  );
}
