import * as v from "valibot";
import { isAllowed, keyRule } from "../../auth/permissions";
import { dataJsonAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { keyJson } from "../../keys/key-json";
import { hashSecret } from "../../keys/secrets";
import { loadKey } from "./get-key";
import { secretField } from "./key-fields";

const WHOAMI = {
  schema: v.strictObject({ key: secretField }),
  fixes: { key: "Pass the whole secret of the key, exactly as it was handed out (prefix included)." },
  example: '{"key": "sk_live_…"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/keys.whoami`: the key a secret belongs to, found by the secret's hash. */
export function whoami(deps: ApiDependencies) {
  return operation(deps, { body: WHOAMI }, (c) => {
    const rootKey = c.get("rootKey");
    const found = loadKey(() => deps.store.findKeyByHash(hashSecret(c.req.valid("json").key)));
    // Another workspace's key, or one the root key may not read, is not found (as on the real service), so nothing
    // tells the caller it exists.
    if (
      found?.workspace_id !== rootKey.workspaceId ||
      !isAllowed(
        rootKey.permissions,
        keyRule("read_key", { workspaceId: found.workspace_id, apiId: found.api_id, keyId: found.id }),
      )
    ) {
      throw new ApiRefusal("err:svc:data:key_not_found");
    }
    return dataJsonAnswer(c, keyJson(found));
  });
}
