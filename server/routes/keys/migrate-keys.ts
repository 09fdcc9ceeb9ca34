import * as v from "valibot";
import { apiRule } from "../../auth/permissions";
import { findKeyMigration, importKeys, type ImportedKey } from "../../db/key-migrations";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal, invalidInput } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import {
  creditsValueField,
  enabledField,
  expiresField,
  FIELD_FIXES,
  metaField,
  nameField,
  permissionsField,
  ratelimitsField,
  refillField,
  rolesField,
} from "./key-fields";

/** The most keys one request imports: its transaction holds the database that long (the real service has no bound). */
const MAX_KEYS = 10_000;

const text = (field: string, min: number, max: number) =>
  v.pipe(
    v.string(`${field} is required and must be a string`),
    v.minLength(min, `${field} must be at least ${min} characters`),
    v.maxLength(max, `${field} must be at most ${max} characters`),
  );

const IMPORTED_KEY = v.strictObject(
  {
    hash: v.pipe(
      v.string("hash is required and must be a string"),
      v.minLength(3, "hash must be at least 3 characters"),
    ),
    name: v.optional(nameField),
    // No pattern here, unlike keys.createKey's: the real service takes the old system's ids as they are.
    externalId: v.optional(text("externalId", 1, 255)),
    meta: v.optional(metaField),
    roles: v.optional(rolesField(0)),
    permissions: v.optional(permissionsField(0, 1000)),
    expires: v.optional(expiresField),
    enabled: v.optional(enabledField),
    credits: v.optional(
      v.strictObject(
        { remaining: v.nullable(creditsValueField("credits.remaining")), refill: v.optional(refillField) },
        'credits must be an object like {"remaining": 100}',
      ),
    ),
    ratelimits: v.optional(ratelimitsField),
  },
  'each key must be an object like {"hash": "…"}',
);

const MIGRATE_KEYS = {
  schema: v.strictObject({
    migrationId: text("migrationId", 3, 255),
    apiId: text("apiId", 3, 255),
    keys: v.pipe(
      v.array(IMPORTED_KEY, "keys must be an array of keys"),
      v.minLength(1, "keys must hold at least one key"),
      v.maxLength(MAX_KEYS, `at most ${MAX_KEYS} keys a request`),
    ),
  }),
  fixes: {
    migrationId: "Pass the id of a key migration of your workspace (npm run admin -- migrations create).",
    apiId: FIELD_FIXES.apiId,
    keys: `Pass 1 to ${MAX_KEYS} keys like {"hash": "…", "externalId": "user_123"}; hash as the migration says.`,
  },
  example: '{"migrationId": "mig_…", "apiId": "api_…", "keys": [{"hash": "…"}]}',
} satisfies BodySpec<v.GenericSchema>;

type MigratedKeyBody = v.InferOutput<typeof IMPORTED_KEY>;

/** An imported key's settings as stored; the real service's 400 for a monthly refill without its day. */
function importedKey(body: MigratedKeyBody, index: number): ImportedKey {
  const { hash, credits, ratelimits, enabled, name, ...rest } = body;
  if (credits?.refill?.interval === "monthly" && credits.refill.refillDay === undefined) {
    throw invalidInput(
      `body.keys.${index}.credits.refill.refillDay`,
      "`refillDay` must be provided when the refill interval is `monthly`.",
    );
  }
  const key: ImportedKey = { ...rest, hash, name: name ?? "", enabled: enabled ?? true };
  if (credits !== undefined && credits.remaining !== null) key.credits = credits.remaining;
  if (credits?.refill !== undefined) key.refill = credits.refill;
  if (ratelimits !== undefined) {
    key.ratelimits = ratelimits.map((limit) => ({
      name: limit.name,
      limit: limit.limit,
      durationMs: limit.duration,
      autoApply: limit.autoApply,
    }));
  }
  return key;
}

/**
 * `POST /v2/keys.migrateKeys` (`api.*.create_key` or `api.<apiId>.create_key`, legacy form only): imports keys by their
 * old system's hashes into an API, under a migration of the workspace. A hash some key has already is answered in
 * `failed`, not imported; the others in `migrated` with their new key ids. One transaction for all of them.
 */
export function migrateKeys(deps: ApiDependencies) {
  return operation(deps, { body: MIGRATE_KEYS, permission: ({ apiId }) => apiRule("create_key", apiId) }, async (c) => {
    const { migrationId, apiId, keys } = c.req.valid("json");
    const imported = keys.map(importedKey);
    const workspaceId = c.get("rootKey").workspaceId;
    const result = await deps.store.change((db) => {
      if (!deps.store.apiBelongsTo(apiId, workspaceId)) {
        throw new ApiRefusal("err:svc:data:api_not_found", {
          detail: "The requested API does not exist or has been deleted.",
        });
      }
      const migration = findKeyMigration(db, workspaceId, migrationId);
      if (migration === undefined) throw new ApiRefusal("err:svc:data:migration_not_found");
      return importKeys(db, migration, apiId, imported, Date.now());
    });
    return dataAnswer(c, result);
  });
}
