import type { Context } from "hono";
import * as v from "valibot";
import type { ApiEnv } from "../../http/api-env";
import { authenticateRootKey, type AuthDependencies } from "../../auth/root-key";
import { creditsOf, deleteKey, rerollKey, updateCredits } from "../../db/keys";
import { keySpaceDefaults } from "../../db/apis";
import { keyRule, keySpaceRule } from "../../auth/permissions";
import { rerolledSecret } from "../../keys/secrets";
import { applyChange, dataAnswer, InvalidInputRefused, requireLiveKey, requirePermissions } from "../change";
import { readValidBody, type BodySpec } from "../../http/json-body";
import { creditsValueField, FIELD_FIXES, keyIdField } from "./key-fields";

/** keys.updateCredits, keys.rerollKey and keys.deleteKey: one key's credits, secret, or existence. */

const KEY_NOT_FOUND = "We could not find the requested key.";

const UPDATE_CREDITS_SCHEMA = v.strictObject({
  keyId: keyIdField,
  operation: v.picklist(["set", "increment", "decrement"], 'operation must be "set", "increment" or "decrement"'),
  value: v.optional(v.nullable(creditsValueField("value"))),
});

const UPDATE_CREDITS: BodySpec<typeof UPDATE_CREDITS_SCHEMA> = {
  schema: UPDATE_CREDITS_SCHEMA,
  fixes: {
    keyId: FIELD_FIXES.keyId,
    operation: 'Pass "set" to replace the credits, "increment" or "decrement" to change them by value.',
    value: "Pass a whole number ≥ 0; with set, null makes the key unlimited.",
  },
  example: '{"keyId": "key_…", "operation": "set", "value": 100}',
};

/** `POST /v2/keys.updateCredits`: set, increment or decrement; set null = unlimited; a decrement stops at 0. */
export function updateCreditsHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, UPDATE_CREDITS);
    if (!body.ok) return body.response;
    const { keyId, operation, value = null } = body.value;

    const result = await applyChange(c, deps.store, (db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, KEY_NOT_FOUND);
      requirePermissions(
        rootKey.permissions,
        keyRule("update_key", { workspaceId: rootKey.workspaceId, apiId: key.apiId, keyId: key.id }),
      );
      if (operation !== "set" && value === null) {
        throw new InvalidInputRefused(
          "body.value",
          "When specifying an increment or decrement operation, a value must be provided.",
        );
      }
      if (operation !== "set" && key.creditsRemaining === null) {
        throw new InvalidInputRefused(
          "body.operation",
          "You cannot increment or decrement a key with unlimited credits.",
        );
      }
      // Past 2^53 JSON readers round the credits, and past 2^63 SQLite cannot store them at all.
      if (
        operation === "increment" &&
        value !== null &&
        key.creditsRemaining !== null &&
        key.creditsRemaining + value > Number.MAX_SAFE_INTEGER
      ) {
        throw new InvalidInputRefused(
          "body.value",
          `The key's credits (${key.creditsRemaining}) plus value must be at most ${Number.MAX_SAFE_INTEGER}.`,
        );
      }
      updateCredits(db, key, operation, value, Date.now());
      return creditsOf(db, key.id);
    });
    if (!result.ok) return result.response;
    const credits = result.value;
    const refill =
      credits.refillInterval !== null && credits.refillAmount !== null
        ? {
            interval: credits.refillInterval,
            amount: credits.refillAmount,
            ...(credits.refillInterval === "monthly" && { refillDay: credits.refillDay ?? 1 }),
          }
        : undefined;
    return dataAnswer(c, { remaining: credits.creditsRemaining, ...(refill !== undefined && { refill }) });
  };
}

const REROLL_KEY_SCHEMA = v.strictObject({
  keyId: keyIdField,
  expiration: v.pipe(
    v.number("expiration is required and must be a number of milliseconds"),
    v.integer("expiration must be a whole number"),
    v.minValue(0, "expiration must be at least 0"),
    v.maxValue(4_102_444_800_000, "expiration must be at most 4102444800000"),
  ),
});

const REROLL_KEY: BodySpec<typeof REROLL_KEY_SCHEMA> = {
  schema: REROLL_KEY_SCHEMA,
  fixes: {
    keyId: FIELD_FIXES.keyId,
    expiration: "Pass how many milliseconds the old key keeps working: 0 revokes it at once.",
  },
  example: '{"keyId": "key_…", "expiration": 0}',
};

/** `POST /v2/keys.rerollKey`: a new key with the old one's settings; the old one expires after `expiration` ms. */
export function rerollKeyHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, REROLL_KEY);
    if (!body.ok) return body.response;
    const { keyId, expiration } = body.value;

    let secret = "";
    const result = await applyChange(c, deps.store, (db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, "The specified key was not found.");
      // Rerolling makes a key: the real service asks for create_key on its API (or its key space).
      requirePermissions(rootKey.permissions, keySpaceRule("create_key", rootKey.workspaceId, key.apiId));
      secret = rerolledSecret(key.start, keySpaceDefaults(db, key.apiId));
      return rerollKey(db, key, secret, expiration, Date.now());
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, { keyId: result.value, key: secret });
  };
}

const DELETE_KEY_SCHEMA = v.strictObject({
  keyId: keyIdField,
  permanent: v.optional(v.boolean("permanent must be true or false")),
});

const DELETE_KEY: BodySpec<typeof DELETE_KEY_SCHEMA> = {
  schema: DELETE_KEY_SCHEMA,
  fixes: {
    keyId: FIELD_FIXES.keyId,
    permanent: "Pass true to remove the key's row for good, or leave permanent out to delete it softly.",
  },
  example: '{"keyId": "key_…"}',
};

/** `POST /v2/keys.deleteKey`: the key is found by nothing from then on; `permanent` removes its row too. */
export function deleteKeyHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, DELETE_KEY);
    if (!body.ok) return body.response;
    const { keyId, permanent = false } = body.value;

    const result = await applyChange(c, deps.store, (db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, KEY_NOT_FOUND);
      requirePermissions(
        rootKey.permissions,
        keyRule("delete_key", { workspaceId: rootKey.workspaceId, apiId: key.apiId, keyId: key.id }),
      );
      deleteKey(db, key.id, permanent, Date.now());
    });
    if (!result.ok) return result.response;
    return dataAnswer(c, {});
  };
}
