import * as v from "valibot";
import type { KeyRecord } from "../../db/key-store";
import { BASE58_PATTERN } from "../../db/ids";
import { keyRule, requirePermission } from "../../auth/permissions";
import { dataJsonAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { keyJson } from "../../keys/key-json";

const KEY_ID = new RegExp(`^key_${BASE58_PATTERN}{1,64}$`);

const GET_KEY = {
  schema: v.strictObject({
    keyId: v.pipe(
      v.string("keyId is required and must be a string"),
      v.regex(KEY_ID, "keyId must be a key id like key_…"),
    ),
    decrypt: v.optional(v.boolean("decrypt must be true or false")),
  }),
  fixes: {
    keyId: "Pass the keyId of a key of your workspace, as keys.listKeys or apis.listKeys return it.",
    decrypt: "Leave decrypt out or false: this server stores keys as hashes only, so decrypt: true is refused (412).",
  },
  example: '{"keyId": "key_…"}',
} satisfies BodySpec<v.GenericSchema>;

/** A key read from the store; a failing database is a 500 in the real service's words. */
export function loadKey(load: () => KeyRecord | undefined): KeyRecord | undefined {
  try {
    return load();
  } catch (error) {
    throw new ApiRefusal("err:svc:application:unexpected_error", {
      detail: "We could not load the requested key.",
      cause: error,
    });
  }
}

/**
 * `POST /v2/keys.getKey`: one key of the workspace by its id. The read permission on the key's API, then the decrypt
 * one when asked (a 403 naming what is missing); a permitted decrypt is 412: keys here are never stored recoverable.
 */
export function getKey(deps: ApiDependencies) {
  return operation(deps, { body: GET_KEY }, (c) => {
    const { keyId, decrypt = false } = c.req.valid("json");
    const rootKey = c.get("rootKey");
    const key = loadKey(() => deps.store.findKeyById(keyId, rootKey.workspaceId));
    if (key === undefined) throw new ApiRefusal("err:svc:data:key_not_found");
    const theKey = { workspaceId: key.workspace_id, apiId: key.api_id, keyId: key.id };
    requirePermission(rootKey.permissions, keyRule("read_key", theKey));
    if (decrypt) {
      requirePermission(rootKey.permissions, keyRule("decrypt_key", theKey));
      throw new ApiRefusal("err:svc:application:precondition_failed", {
        detail: "The API for this key does not support key encryption.",
      });
    }
    return dataJsonAnswer(c, keyJson(key));
  });
}
