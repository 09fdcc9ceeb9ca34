import * as v from "valibot";
import { keyRule, requirePermission } from "../../auth/permissions";
import { deleteKey as deleteStoredKey, requireLiveKey } from "../../db/keys";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { FIELD_FIXES, keyIdField } from "./key-fields";

const DELETE_KEY = {
  schema: v.strictObject({
    keyId: keyIdField,
    permanent: v.optional(v.boolean("permanent must be true or false")),
  }),
  fixes: {
    keyId: FIELD_FIXES.keyId,
    permanent: "Pass true to remove the key's row for good, or leave permanent out to delete it softly.",
  },
  example: '{"keyId": "key_…"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/keys.deleteKey`: the key is found by nothing from then on; `permanent` removes its row too. */
export function deleteKey(deps: ApiDependencies) {
  return operation(deps, { body: DELETE_KEY }, async (c) => {
    const { keyId, permanent = false } = c.req.valid("json");
    const rootKey = c.get("rootKey");

    await deps.store.change((db) => {
      const key = requireLiveKey(db, rootKey.workspaceId, keyId);
      requirePermission(
        rootKey.permissions,
        keyRule("delete_key", { workspaceId: rootKey.workspaceId, apiId: key.apiId, keyId: key.id }),
      );
      deleteStoredKey(db, key.id, permanent, Date.now());
    });
    return dataAnswer(c, {});
  });
}
