import * as v from "valibot";
import { keyRule, requirePermission } from "../../auth/permissions";
import { creditsOf, requireLiveKey, updateCredits as updateStoredCredits } from "../../db/keys";
import { dataAnswer } from "../../http/answers";
import { invalidInput } from "../../http/api-refusal";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { creditsValueField, FIELD_FIXES, keyIdField } from "./key-fields";

const UPDATE_CREDITS = {
  schema: v.strictObject({
    keyId: keyIdField,
    operation: v.picklist(["set", "increment", "decrement"], 'operation must be "set", "increment" or "decrement"'),
    value: v.optional(v.nullable(creditsValueField("value"))),
  }),
  fixes: {
    keyId: FIELD_FIXES.keyId,
    operation: 'Pass "set" to replace the credits, "increment" or "decrement" to change them by value.',
    value: "Pass a whole number ≥ 0; with set, null makes the key unlimited.",
  },
  example: '{"keyId": "key_…", "operation": "set", "value": 100}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/keys.updateCredits`: set, increment or decrement; set null = unlimited; a decrement stops at 0. */
export function updateCredits(deps: ApiDependencies) {
  return operation(deps, { body: UPDATE_CREDITS }, async (c) => {
    const { keyId, operation: change, value = null } = c.req.valid("json");
    const rootKey = c.get("rootKey");

    const credits = await deps.store.change((db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId);
      requirePermission(
        rootKey.permissions,
        keyRule("update_key", { workspaceId: rootKey.workspaceId, apiId: key.apiId, keyId: key.id }),
      );
      if (change !== "set" && value === null) {
        throw invalidInput(
          "body.value",
          "When specifying an increment or decrement operation, a value must be provided.",
        );
      }
      if (change !== "set" && key.creditsRemaining === null) {
        throw invalidInput("body.operation", "You cannot increment or decrement a key with unlimited credits.");
      }
      // Past 2^53 JSON readers round the credits, and past 2^63 SQLite cannot store them at all.
      if (
        change === "increment" &&
        value !== null &&
        key.creditsRemaining !== null &&
        key.creditsRemaining + value > Number.MAX_SAFE_INTEGER
      ) {
        throw invalidInput(
          "body.value",
          `The key's credits (${key.creditsRemaining}) plus value must be at most ${Number.MAX_SAFE_INTEGER}.`,
        );
      }
      updateStoredCredits(db, key, change, value, Date.now());
      return creditsOf(db, key.id);
    });
    const refill =
      credits.refillInterval !== null && credits.refillAmount !== null
        ? {
            interval: credits.refillInterval,
            amount: credits.refillAmount,
            ...(credits.refillInterval === "monthly" && { refillDay: credits.refillDay ?? 1 }),
          }
        : undefined;
    return dataAnswer(c, { remaining: credits.creditsRemaining, ...(refill !== undefined && { refill }) });
  });
}
