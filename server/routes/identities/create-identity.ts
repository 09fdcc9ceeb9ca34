import * as v from "valibot";
import { anyIdentityRule } from "../../auth/permissions";
import { ConflictError } from "../../db/conflict-error";
import { createIdentity as createStoredIdentity } from "../../db/identities";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { externalIdField, FIELD_FIXES, metaField, ratelimitListField } from "../keys/key-fields";
import { IDENTITY_FIXES, identityRateLimits } from "./identity-fields";

const CREATE_IDENTITY = {
  schema: v.strictObject({
    externalId: externalIdField,
    meta: v.optional(metaField),
    ratelimits: v.optional(ratelimitListField),
  }),
  fixes: { externalId: FIELD_FIXES.externalId, meta: IDENTITY_FIXES.meta, ratelimits: IDENTITY_FIXES.ratelimits },
  example: '{"externalId": "user_123"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/identities.createIdentity` (`identity.*.create_identity`): answers `{identityId}`; 409 for an external id in use. */
export function createIdentity(deps: ApiDependencies) {
  return operation(
    deps,
    { body: CREATE_IDENTITY, permission: (_, rootKey) => anyIdentityRule("create_identity", rootKey.workspaceId) },
    async (c) => {
      const { externalId, meta, ratelimits } = c.req.valid("json");
      const limits = ratelimits === undefined ? [] : identityRateLimits(ratelimits);
      const workspaceId = c.get("rootKey").workspaceId;
      const identityId = await deps.store.change((db) => {
        try {
          // As the real service: an identity made without meta has an empty one.
          return createStoredIdentity(db, { workspaceId, externalId, meta: meta ?? {}, ratelimits: limits });
        } catch (error) {
          if (!(error instanceof ConflictError)) throw error;
          throw new ApiRefusal("err:svc:data:identity_already_exists", {
            detail: `Identity with externalId '${externalId}' already exists in this workspace.`,
          });
        }
      });
      return dataAnswer(c, { identityId });
    },
  );
}
