import type { Context } from "hono";
import * as v from "valibot";
import { missingPermissionsDetail } from "../../../src/lib/contract";
import type { ApiEnv } from "../../http/api-env";
import { authenticateRootKey, type AuthDependencies } from "../../auth/root-key";
import type { KeyRecord } from "../../db/key-store";
import { errorResponse, FailedWith, okJson } from "../../http/errors";
import { BASE58_PATTERN } from "../../db/ids";
import { keyJson } from "../../keys/key-json";
import { isAllowed, keyRule, missingFor } from "../../auth/permissions";
import { hashSecret } from "../../keys/secrets";
import { readValidBody, type BodySpec } from "../../http/json-body";

const KEY_ID = new RegExp(`^key_${BASE58_PATTERN}{1,64}$`);
/** The real service's bound on a key's length. */
export const KEY_MAX_LENGTH = 512;

interface GetKeyBody {
  keyId: string;
  decrypt?: boolean;
}

const GET_KEY: BodySpec<v.GenericSchema<unknown, GetKeyBody>> = {
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
};

const WHOAMI: BodySpec<v.GenericSchema<unknown, { key: string }>> = {
  schema: v.strictObject({
    key: v.pipe(
      v.string("key is required and must be a string"),
      v.nonEmpty("key must not be empty"),
      v.maxLength(KEY_MAX_LENGTH, `key must be at most ${KEY_MAX_LENGTH} characters`),
    ),
  }),
  fixes: { key: "Pass the whole secret of the key, exactly as it was handed out (prefix included)." },
  example: '{"key": "sk_live_…"}',
};

/**
 * The read permission on the key's API, then the decrypt one when asked, or the 403 that names what is missing;
 * a permitted decrypt is 412: keys here are never stored recoverable (the real service's words).
 */
function refuseUnlessPermitted(
  c: Context<ApiEnv>,
  permissions: string,
  key: KeyRecord,
  decrypt: boolean,
): Response | undefined {
  const theKey = { workspaceId: key.workspace_id, apiId: key.api_id, keyId: key.id };
  const read = keyRule("read_key", theKey);
  if (!isAllowed(permissions, read)) {
    return errorResponse(c, "err:svc:authorization:insufficient_permissions", {
      detail: missingPermissionsDetail(missingFor(permissions, read)),
    });
  }
  if (!decrypt) return undefined;
  const decryptKey = keyRule("decrypt_key", theKey);
  if (!isAllowed(permissions, decryptKey)) {
    return errorResponse(c, "err:svc:authorization:insufficient_permissions", {
      detail: missingPermissionsDetail(missingFor(permissions, decryptKey)),
    });
  }
  return errorResponse(c, "err:svc:application:precondition_failed", {
    detail: "The API for this key does not support key encryption.",
  });
}

/** A key read from the store; a failing database is a 500 in the real service's words. */
function loadKey(load: () => KeyRecord | undefined): KeyRecord | undefined {
  try {
    return load();
  } catch (error) {
    throw new FailedWith("We could not load the requested key.", error);
  }
}

function keyAnswer(c: Context<ApiEnv>, key: KeyRecord): Response {
  return okJson(`{"meta":{"requestId":"${c.get("requestId")}"},"data":${keyJson(key)}}`);
}

/** `POST /v2/keys.getKey`: one key of the workspace by its id. */
export function getKeyHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, GET_KEY);
    if (!body.ok) return body.response;

    const key = loadKey(() => deps.store.findKeyById(body.value.keyId, rootKey.workspaceId));
    if (key === undefined) return errorResponse(c, "err:svc:data:key_not_found");
    return refuseUnlessPermitted(c, rootKey.permissions, key, body.value.decrypt === true) ?? keyAnswer(c, key);
  };
}

/** `POST /v2/keys.whoami`: the key a secret belongs to, found by the secret's hash. */
export function whoamiHandler(deps: AuthDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;
    const body = await readValidBody(c, WHOAMI);
    if (!body.ok) return body.response;

    const found = loadKey(() => deps.store.findKeyByHash(hashSecret(body.value.key)));
    // Another workspace's key, or one the root key may not read, is not found (as on the real service), so nothing
    // tells the caller it exists.
    if (
      found?.workspace_id !== rootKey.workspaceId ||
      !isAllowed(
        rootKey.permissions,
        keyRule("read_key", { workspaceId: found.workspace_id, apiId: found.api_id, keyId: found.id }),
      )
    ) {
      return errorResponse(c, "err:svc:data:key_not_found");
    }
    return keyAnswer(c, found);
  };
}
