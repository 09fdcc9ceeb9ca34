import * as v from "valibot";
import { keySpaceRule, requirePermission } from "../../auth/permissions";
import { keySpaceDefaults } from "../../db/apis";
import { requireLiveKey, rerollKey as rerollStoredKey, SPECIFIED_KEY_NOT_FOUND } from "../../db/keys";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { rerolledSecret } from "../../keys/secrets";
import { FIELD_FIXES, keyIdField } from "./key-fields";

const REROLL_KEY = {
  schema: v.strictObject({
    keyId: keyIdField,
    expiration: v.pipe(
      v.number("expiration is required and must be a number of milliseconds"),
      v.integer("expiration must be a whole number"),
      v.minValue(0, "expiration must be at least 0"),
      v.maxValue(4_102_444_800_000, "expiration must be at most 4102444800000"),
    ),
  }),
  fixes: {
    keyId: FIELD_FIXES.keyId,
    expiration: "Pass how many milliseconds the old key keeps working: 0 revokes it at once.",
  },
  example: '{"keyId": "key_…", "expiration": 0}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/keys.rerollKey`: a new key with the old one's settings; the old one expires after `expiration` ms. */
export function rerollKey(deps: ApiDependencies) {
  return operation(deps, { body: REROLL_KEY }, async (c) => {
    const { keyId, expiration } = c.req.valid("json");
    const rootKey = c.get("rootKey");

    let secret = "";
    const newKeyId = await deps.store.change((db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId, SPECIFIED_KEY_NOT_FOUND);
      // Rerolling makes a key: the real service asks for create_key on its API (or its key space).
      requirePermission(rootKey.permissions, keySpaceRule("create_key", rootKey.workspaceId, key.apiId));
      secret = rerolledSecret(key.start, keySpaceDefaults(db, key.apiId));
      return rerollStoredKey(db, key, secret, expiration, Date.now());
    });
    return dataAnswer(c, { keyId: newKeyId, key: secret });
  });
}
