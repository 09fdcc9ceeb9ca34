import * as v from "valibot";
import { keyRule, requirePermission } from "../../auth/permissions";
import { requireLiveKey, updateKey as updateStoredKey, type KeyUpdate } from "../../db/keys";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { invalidInput } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
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

const UPDATE_KEY = {
  schema: v.strictObject({
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
  }),
  fixes: FIELD_FIXES,
  example: '{"keyId": "key_…", "name": "renamed"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/keys.updateKey`: every field given replaces the key's; `null` clears it. */
export function updateKey(deps: ApiDependencies) {
  return operation(deps, { body: UPDATE_KEY }, async (c) => {
    const { keyId, credits, ratelimits, ...fields } = c.req.valid("json");
    const rootKey = c.get("rootKey");

    await deps.store.change((db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId);
      // Unlike reading a key, the real service answers a root key that may not update it with a 403.
      // update_key is all it asks, also of roles and permissions set here (no rbac.* check, see #29).
      requirePermission(
        rootKey.permissions,
        keyRule("update_key", { workspaceId: rootKey.workspaceId, apiId: key.apiId, keyId: key.id }),
      );
      const refill = credits?.refill;
      if (refill?.interval === "monthly" && refill.refillDay === undefined) {
        throw invalidInput(
          "body.credits.refill.refillDay",
          "`refillDay` must be provided when the refill interval is `monthly`.",
        );
      }
      if (refill?.interval === "daily" && refill.refillDay !== undefined) {
        throw invalidInput(
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
      updateStoredKey(db, key, update, Date.now());
    });
    return dataAnswer(c, {});
  });
}
