/**
 * What the API's answers look like, as valibot schemas: lenient where the real service and the reference
 * server differ or may omit a field (a missing, null or wrong-typed optional field is left out), strict
 * where the contract is. Parsed, never cast.
 */
import * as v from "valibot";
import type { Key, KeyCredits, KeyIdentity, KeyRatelimit } from "../contract";

/** A field kept when it has the right type and left out otherwise (null included). */
export function lenient<TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.fallback(v.optional(schema), undefined);
}

/** An array whose malformed items are dropped rather than failing the whole answer; absent when not an array. */
function lenientList<TSchema extends v.GenericSchema>(item: TSchema) {
  return lenient(
    v.pipe(
      v.array(v.unknown()),
      v.transform((items) =>
        items.flatMap((entry) => {
          const parsed = v.safeParse(item, entry);
          return parsed.success ? [parsed.output] : [];
        }),
      ),
    ),
  );
}

/**
 * The object without the fields that are undefined, so that an absent field stays absent. Built anew rather
 * than by deleting: an object that loses a property turns into a hash table in V8, 416 bytes for a key where
 * its few fields take 80 (with 10,000 keys loaded, 3 MiB of the heap).
 */
function compact<T extends object>(value: T): T {
  const kept: Partial<T> = {};
  for (const name of Object.keys(value) as (keyof T)[]) if (value[name] !== undefined) kept[name] = value[name];
  // Every field of `value` that is not undefined is in `kept`, so it is still a T.
  return kept as T;
}

export const FiniteNumber = v.pipe(v.number(), v.finite());
const Integer = v.pipe(v.number(), v.integer());
export const PlainObject = v.custom<Record<string, unknown>>(
  (input) => typeof input === "object" && input !== null && !Array.isArray(input),
);

export const MetaSchema = lenient(v.looseObject({ requestId: lenient(v.string()) }));

export const PaginationSchema = v.looseObject({ cursor: lenient(v.string()), hasMore: v.boolean() });

const RatelimitSchema = v.pipe(
  v.looseObject({
    id: v.string(),
    name: v.string(),
    limit: FiniteNumber,
    duration: FiniteNumber,
    autoApply: v.boolean(),
  }),
  v.transform(({ id, name, limit, duration, autoApply }): KeyRatelimit => ({ id, name, limit, duration, autoApply })),
);

/** A key's credits as answered (a Key's, and keys.updateCredits'): its refill kept with its day when it has one. */
export const CreditsSchema = v.pipe(
  v.looseObject({
    remaining: v.nullable(Integer),
    refill: lenient(
      v.looseObject({ interval: v.picklist(["daily", "monthly"]), amount: FiniteNumber, refillDay: lenient(Integer) }),
    ),
  }),
  v.transform(({ remaining, refill }): KeyCredits =>
    compact({
      remaining,
      refill: refill && compact({ interval: refill.interval, amount: refill.amount, refillDay: refill.refillDay }),
    }),
  ),
);

/** An identity (a key's, and identities.getIdentity's, listIdentities' and updateIdentity's answers). */
export const IdentitySchema = v.pipe(
  v.looseObject({
    id: v.string(),
    externalId: v.string(),
    meta: lenient(PlainObject),
    ratelimits: lenientList(RatelimitSchema),
  }),
  v.transform(({ id, externalId, meta, ratelimits }): KeyIdentity => compact({ id, externalId, meta, ratelimits })),
);

/**
 * The Key object (docs/api.md#the-key-object); only the known fields are kept, so nothing else the server sends (a
 * `plaintext`) is.
 */
export const KeySchema = v.pipe(
  v.looseObject({
    keyId: v.string(),
    name: lenient(v.string()),
    start: lenient(v.string()),
    enabled: lenient(v.boolean()),
    createdAt: lenient(FiniteNumber),
    updatedAt: lenient(FiniteNumber),
    lastUsedAt: lenient(FiniteNumber),
    expires: lenient(FiniteNumber),
    meta: lenient(PlainObject),
    permissions: lenientList(v.string()),
    roles: lenientList(v.string()),
    credits: lenient(CreditsSchema),
    identity: lenient(IdentitySchema),
    ratelimits: lenientList(RatelimitSchema),
  }),
  v.transform((key): Key =>
    compact({
      keyId: key.keyId,
      name: key.name,
      start: key.start,
      enabled: key.enabled,
      createdAt: key.createdAt,
      updatedAt: key.updatedAt,
      lastUsedAt: key.lastUsedAt,
      expires: key.expires,
      meta: key.meta,
      permissions: key.permissions,
      roles: key.roles,
      credits: key.credits,
      identity: key.identity,
      ratelimits: key.ratelimits,
    }),
  ),
);

export const ErrorDetailEntrySchema = v.looseObject({
  location: v.string(),
  message: v.string(),
  fix: lenient(v.string()),
});

export const ErrorFieldsSchema = v.looseObject({
  status: lenient(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599))),
  title: lenient(v.string()),
  detail: lenient(v.string()),
  type: lenient(v.string()),
  errors: lenient(v.array(v.unknown())),
});

export const ErrorEnvelopeSchema = v.looseObject({ meta: MetaSchema, error: v.pipe(PlainObject, ErrorFieldsSchema) });

/** The reference server answers `data: {keys}`, the real service `data` as the array itself. */
export const KeysDataSchema = v.union([
  v.array(KeySchema),
  v.pipe(
    v.looseObject({ keys: v.array(KeySchema) }),
    v.transform(({ keys }) => keys),
  ),
]);
