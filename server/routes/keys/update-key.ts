import type { Context } from "hono";
import * as v from "valibot";
import type { ApiEnv } from "../../http/api-env";
import { authenticateRootKey, type AuthDependencies } from "../../auth/root-key";
import { updateKey, type KeyUpdate } from "../../db/keys";
import { keyRule } from "../../auth/permissions";
import { applyChange, dataAnswer, InvalidInputRefused, requireLiveKey, requirePermissions } from "../change";
import { readValidBody, type BodySpec } from "../../http/json-body";
import {
  creditsValueField,
  enabledField,
  expiresField,
  externalIdField,
  FIELD_FIXES,
  keyIdField,
  metaField,
  nameField,
  permissionsField,
  ratelimitsField,
  refillField,
  rolesField,
} from "./key-fields";

const UPDATE_KEY_SCHEMA = v.strictObject({
  keyId: keyIdField,
  name: v.optional(v.nullable(nameField)),
  externalId: v.optional(v.nullable(externalIdField)),
  meta: v.optional(v.nullable(metaField)),
  expires: v.optional(v.nullable(expiresField)),
  credits: v.optional(
    v.nullable(
      v.strictObject(
        {
          remaining: v.optional(v.nullable(creditsValueField("credits.remaining"))),
          refill: v.optional(v.nullable(refillField)),
        },
        'credits must be an object like {"remaining": 100}, or null',
      ),
    ),
  ),
  ratelimits: v.optional(ratelimitsField),
  enabled: v.optional(enabledField),
  roles: v.optional(rolesField(0)),
  permissions: v.optional(permissionsField(0, 1000)),
});

const UPDATE_KEY: BodySpec<typeof UPDATE_KEY_SCHEMA> = {
  schema: UPDATE_KEY_SCHEMA,
  fixes: FIELD_FIXES,
  example: '{"keyId": "key_…", "name": "renamed"}',
};

const KEY_NOT_FOUND = "We could not find the requested key.";

/** `POST /v2/keys.updateKey`: every field given replaces the key's; `null` clears it. */
export function updateKeyHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, UPDATE_KEY);
    if (!body.ok) return body.response;
    const { keyId, credits, ratelimits, ...fields } = body.value;

    const result = await applyChange(c, deps.store, (db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, KEY_NOT_FOUND);
      // Unlike reading a key, the real service answers a root key that may not update it with a 403.
      // update_key is all it asks, also of roles and permissions set here (no rbac.* check, see #29).
      requirePermissions(
        rootKey.permissions,
        keyRule("update_key", { workspaceId: rootKey.workspaceId, apiId: key.apiId, keyId: key.id }),
      );
      const refill = credits?.refill;
      if (refill?.interval === "monthly" && refill.refillDay === undefined) {
        throw new InvalidInputRefused(
          "body.credits.refill.refillDay",
          "`refillDay` must be provided when the refill interval is `monthly`.",
        );
      }
      if (refill?.interval === "daily" && refill.refillDay !== undefined) {
        throw new InvalidInputRefused(
          "body.credits.refill.refillDay",
          "`refillDay` must not be provided when the refill interval is `daily`.",
        );
      }
      const update: KeyUpdate = { ...fields };
      if (credits !== undefined) update.credits = credits;
      if (ratelimits !== undefined) {
        update.ratelimits = ratelimits.map((limit) => ({
          name: limit.name,
          limit: limit.limit,
          durationMs: limit.duration,
          autoApply: limit.autoApply,
        }));
      }
      updateKey(db, key, update, Date.now());
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, {});
  };
}
