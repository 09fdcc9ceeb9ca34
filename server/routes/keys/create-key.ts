import * as v from "valibot";
import { KEY_FIELD_BOUNDS as BOUNDS } from "../../../src/lib/contract";
import { anyKeyRule, isAllowed, keySpaceRule } from "../../auth/permissions";
import { keySpaceDefaults } from "../../db/apis";
import { insertKey, type NewKey } from "../../db/keys";
import { requireRoles } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal, invalidInput } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { createdSecret } from "../../keys/secrets";
import {
  apiIdField,
  creditsValueField,
  enabledField,
  expiresField,
  externalIdField,
  FIELD_FIXES,
  metaField,
  nameField,
  permissionsField,
  ratelimitsField,
  refillField,
  rolesField,
} from "./key-fields";

const CREATE_KEY = {
  schema: v.strictObject({
    apiId: apiIdField(3),
    prefix: v.optional(
      v.pipe(
        v.string("prefix must be a string"),
        v.minLength(1, "prefix must not be empty"),
        v.maxLength(BOUNDS.prefix.maxLength, `prefix must be at most ${BOUNDS.prefix.maxLength} characters`),
        v.regex(BOUNDS.prefix.pattern, "prefix may hold only letters, digits and _"),
      ),
    ),
    name: v.optional(nameField),
    byteLength: v.optional(
      v.pipe(
        v.number("byteLength must be a number"),
        v.integer("byteLength must be a whole number"),
        v.minValue(16, "byteLength must be at least 16"),
        v.maxValue(255, "byteLength must be at most 255"),
      ),
    ),
    externalId: v.optional(externalIdField),
    meta: v.optional(metaField),
    roles: v.optional(rolesField(0)),
    permissions: v.optional(permissionsField(0, 1000)),
    expires: v.optional(expiresField),
    credits: v.optional(
      v.strictObject(
        { remaining: v.nullable(creditsValueField("credits.remaining")), refill: v.optional(refillField) },
        'credits must be an object like {"remaining": 100}',
      ),
    ),
    ratelimits: v.optional(ratelimitsField),
    enabled: v.optional(enabledField),
    recoverable: v.optional(v.boolean("recoverable must be true or false")),
  }),
  fixes: {
    ...FIELD_FIXES,
    prefix: "Pass up to 16 letters, digits or _, without the trailing _ (it is added).",
    byteLength: "Pass a whole number from 16 to 255, or leave byteLength out for the API's default (16 unless set).",
    recoverable: "Leave recoverable out or false: this server never stores a key recoverable.",
  },
  example: '{"apiId": "api_…", "name": "my key"}',
} satisfies BodySpec<v.GenericSchema>;

const API_NOT_FOUND = "The specified API was not found.";

/** `POST /v2/keys.createKey`: a new key of an API; its secret is in this answer only, and stored only as a hash. */
export function createKey(deps: ApiDependencies) {
  return operation(deps, { body: CREATE_KEY }, async (c) => {
    const request = c.req.valid("json");
    const rootKey = c.get("rootKey");

    let secret = "";
    const keyId = await deps.store.change((db) => {
      // As the real service: a root key that may not create keys in this API is told the API does not exist.
      // create_key is all it asks, also of roles and permissions given here (no rbac.* check, see #29).
      if (
        !deps.store.apiBelongsTo(request.apiId, rootKey.workspaceId) ||
        !isAllowed(rootKey.permissions, keySpaceRule("create_key", rootKey.workspaceId, request.apiId))
      ) {
        throw new ApiRefusal("err:svc:data:api_not_found", { detail: API_NOT_FOUND });
      }
      // This server keeps no key recoverable. As the real service: without `encrypt_key` the API is not found; with
      // it, a 412 says the API is not set up for encrypted keys.
      if (request.recoverable === true) {
        if (!isAllowed(rootKey.permissions, anyKeyRule("encrypt_key", rootKey.workspaceId, request.apiId))) {
          throw new ApiRefusal("err:svc:data:api_not_found", { detail: API_NOT_FOUND });
        }
        throw new ApiRefusal("err:svc:application:precondition_failed", {
          detail: "This API does not support key encryption.",
        });
      }
      const { credits } = request;
      if (credits?.refill !== undefined && credits.remaining === null) {
        throw invalidInput(
          "body.credits.remaining",
          "`credits.remaining` must be provided when `credits.refill` is set.",
        );
      }
      if (credits?.refill?.interval === "monthly" && credits.refill.refillDay === undefined) {
        throw invalidInput(
          "body.credits.refill.refillDay",
          "`refillDay` must be provided when the refill interval is `monthly`.",
        );
      }
      // As the real service: what the request leaves out of prefix and byteLength comes from the API's key space.
      secret = createdSecret(request, keySpaceDefaults(db, request.apiId));
      const now = Date.now();
      const key: NewKey = {
        workspaceId: rootKey.workspaceId,
        apiId: request.apiId,
        name: request.name ?? "",
        secret,
        enabled: request.enabled ?? true,
        createdAt: now,
      };
      if (request.expires !== undefined) key.expires = request.expires;
      if (request.meta !== undefined) key.meta = request.meta;
      if (request.externalId !== undefined) key.externalId = request.externalId;
      if (credits !== undefined && credits.remaining !== null) key.credits = credits.remaining;
      if (credits?.refill !== undefined) key.refill = credits.refill;
      if (request.permissions !== undefined) key.permissions = request.permissions;
      if (request.roles !== undefined)
        key.roles = requireRoles(db, rootKey.workspaceId, request.roles).map((role) => role.name);
      if (request.ratelimits !== undefined) {
        key.ratelimits = request.ratelimits.map((limit) => ({
          name: limit.name,
          limit: limit.limit,
          durationMs: limit.duration,
          autoApply: limit.autoApply,
        }));
      }
      return insertKey(db, key);
    });
    return dataAnswer(c, { keyId, key: secret });
  });
}
