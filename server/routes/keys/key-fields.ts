import * as v from "valibot";
import { KEY_FIELD_BOUNDS as BOUNDS } from "../../../src/lib/contract";

/**
 * The body fields the key-changing operations share, with the real service's bounds (its OpenAPI description,
 * which the official client's models follow).
 */

const IDENTIFIER = /^[a-zA-Z0-9_]+$/;

export const keyIdField = v.pipe(
  v.string("keyId is required and must be a string"),
  v.minLength(3, "keyId must be at least 3 characters"),
  v.maxLength(255, "keyId must be at most 255 characters"),
  v.regex(IDENTIFIER, "keyId must be a key id like key_…"),
);

export function apiIdField(minLength: number) {
  return v.pipe(
    v.string("apiId is required and must be a string"),
    v.minLength(minLength, `apiId must be at least ${minLength} characters`),
    v.maxLength(255, "apiId must be at most 255 characters"),
    v.regex(IDENTIFIER, "apiId must be an API id like api_…"),
  );
}

const wholeNumber = (field: string, min: number, max = BOUNDS.wholeNumberMax) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.integer(`${field} must be a whole number`),
    v.minValue(min, `${field} must be at least ${min}`),
    v.maxValue(max, `${field} must be at most ${max}`),
  );

export const nameField = v.pipe(
  v.string("name must be a string"),
  v.minLength(1, "name must not be empty"),
  v.maxLength(BOUNDS.nameMaxLength, `name must be at most ${BOUNDS.nameMaxLength} characters`),
);

export const externalIdField = v.pipe(
  v.string("externalId must be a string"),
  v.minLength(1, "externalId must not be empty"),
  v.maxLength(BOUNDS.externalId.maxLength, `externalId must be at most ${BOUNDS.externalId.maxLength} characters`),
  v.regex(BOUNDS.externalId.pattern, "externalId may hold only letters, digits, _, . and -"),
);

/**
 * How deep a key's meta may nest. The real service stores meta as text and reads any depth Go's JSON decoder takes
 * (10,000); here JSON.stringify, which stores and answers it, overflows the stack some thousands deep, so the limit
 * is the deepest this server writes back with room to spare.
 */
const META_MAX_DEPTH = 1000;

/** Whether `value` nests objects and arrays at most `levels` deep; it stops looking below that, so never overflows. */
function nestsAtMost(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (levels === 0) return false;
  return Object.values(value).every((child) => nestsAtMost(child, levels - 1));
}

// valibot's record takes an array as well; meta is only ever an object (the database checks it too).
export const metaField = v.pipe(
  v.custom<Record<string, unknown>>(
    (input) => typeof input === "object" && input !== null && !Array.isArray(input),
    "meta must be a JSON object",
  ),
  v.check((meta) => Object.keys(meta).length <= 100, "meta may have at most 100 fields"),
  v.check(
    (meta) => nestsAtMost(meta, META_MAX_DEPTH),
    `meta may nest objects and arrays at most ${META_MAX_DEPTH} levels deep`,
  ),
);

export const expiresField = wholeNumber("expires", 0, BOUNDS.expiresMax);

export const enabledField = v.boolean("enabled must be true or false");

export const creditsValueField = (field: string) => wholeNumber(field, 0);

export const refillField = v.strictObject(
  {
    interval: v.picklist(["daily", "monthly"], 'refill.interval must be "daily" or "monthly"'),
    amount: wholeNumber("refill.amount", 1),
    refillDay: v.optional(wholeNumber("refill.refillDay", BOUNDS.refillDay.min, BOUNDS.refillDay.max)),
  },
  'refill must be an object like {"interval": "monthly", "amount": 100, "refillDay": 1}',
);

/** A list of rate limits as keys and identities are given them (a name, a limit, a window in ms, whether auto-applied). */
export const ratelimitListField = v.pipe(
  v.array(
    v.strictObject(
      {
        name: v.pipe(
          v.string("a rate limit's name must be a string"),
          v.minLength(
            BOUNDS.ratelimitName.minLength,
            `a rate limit's name must be at least ${BOUNDS.ratelimitName.minLength} characters`,
          ),
          v.maxLength(
            BOUNDS.ratelimitName.maxLength,
            `a rate limit's name must be at most ${BOUNDS.ratelimitName.maxLength} characters`,
          ),
        ),
        limit: wholeNumber("limit", 1),
        duration: wholeNumber("duration", BOUNDS.ratelimitDurationMin),
        autoApply: v.optional(v.boolean("autoApply must be true or false"), false),
      },
      'each rate limit must be an object like {"name": "requests", "limit": 10, "duration": 60000, "autoApply": true}',
    ),
    "ratelimits must be an array",
  ),
  v.maxLength(50, "at most 50 rate limits"),
);

/** The first name given to two rate limits of one list, if any. */
export function repeatedRateLimitName(limits: readonly { name: string }[]): string | undefined {
  const seen = new Set<string>();
  return limits.find(({ name }) => seen.has(name) || !seen.add(name))?.name;
}

export const ratelimitsField = v.pipe(
  ratelimitListField,
  v.check((limits) => repeatedRateLimitName(limits) === undefined, "each rate limit needs its own name"),
);

export function permissionsField(minItems: number, maxItems: number) {
  return v.pipe(
    v.array(
      v.pipe(
        v.string("each permission must be a string"),
        v.minLength(1, "a permission must not be empty"),
        v.maxLength(
          BOUNDS.permission.maxLength,
          `a permission must be at most ${BOUNDS.permission.maxLength} characters`,
        ),
        v.regex(BOUNDS.permission.pattern, "a permission may hold only letters, digits and _ : - . *"),
      ),
      "permissions must be an array of strings",
    ),
    v.minLength(minItems, `permissions must name at least ${minItems}`),
    v.maxLength(maxItems, `at most ${maxItems} permissions`),
  );
}

export function rolesField(minItems: number) {
  return v.pipe(
    v.array(
      v.pipe(
        v.string("each role must be a string"),
        v.minLength(1, "a role must not be empty"),
        v.maxLength(BOUNDS.roleMaxLength, `a role must be at most ${BOUNDS.roleMaxLength} characters`),
      ),
      "roles must be an array of strings",
    ),
    v.minLength(minItems, `roles must name at least ${minItems}`),
    v.maxLength(100, "at most 100 roles"),
  );
}

export const FIELD_FIXES = {
  keyId: "Pass the keyId of a key of your workspace, as apis.listKeys returns it.",
  apiId: "Pass the id of an API of your workspace, like api_….",
  name: "Pass a name of 1 to 255 characters.",
  externalId: "Pass your own id for the key's owner: letters, digits, _, . and -.",
  meta: `Pass a JSON object of at most 100 fields, nested at most ${META_MAX_DEPTH} levels deep.`,
  expires: "Pass a Unix time in milliseconds (before 2100).",
  enabled: "Pass true or false.",
  credits: 'Pass {"remaining": 100} and optionally "refill": {"interval": "daily", "amount": 100}.',
  ratelimits:
    'Pass [{"name": "requests", "limit": 10, "duration": 60000, "autoApply": true}]: duration in ms, at least 1000.',
  roles: "Pass names of roles of your workspace (permissions.listRoles).",
  permissions: 'Pass permission slugs like "documents.read".',
} as const;

/** The real service's bound on a key's secret, as verifyKey and whoami take it. */
export const KEY_MAX_LENGTH = 512;

export const secretField = v.pipe(
  v.string("key is required and must be a string"),
  v.nonEmpty("key must not be empty"),
  v.maxLength(KEY_MAX_LENGTH, `key must be at most ${KEY_MAX_LENGTH} characters`),
);
