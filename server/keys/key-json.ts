import type { KeyRecord } from "../db/key-store";

/**
 * How a key with no name is answered (stored as `""`: never given, or cleared with `name: null`; a name given is never
 * empty). The real service stores NULL, but answers NULL and `""` alike, without `name` (its `name` is `omitempty`),
 * so rows of older data directories need no migration. The seed's `keys.listKeys` always has one: there it is `""`.
 */
export type NamelessKey = "without name" | "empty name";

/**
 * The contract's `Key` object (docs/api.md#the-key-object) as JSON text, written straight from the stored row: a
 * page of 100 keys is a list request's biggest cost, and this skips an object per key and a parse and stringify of
 * every JSON column (stored as JSON text: `meta` only ever an object, the lists only ever arrays).
 * Never the secret: `plaintext` is not stored, so it is never written.
 */
export function keyJson(key: KeyRecord, nameless: NamelessKey = "without name"): string {
  let json = `{"keyId":${JSON.stringify(key.id)},"start":${JSON.stringify(key.start)},"enabled":${key.enabled === 1}`;
  if (key.name !== "" || nameless === "empty name") json += `,"name":${JSON.stringify(key.name)}`;
  json += `,"createdAt":${key.created_at}`;
  if (key.meta !== null) json += `,"meta":${key.meta}`;
  if (key.updated_at !== null) json += `,"updatedAt":${key.updated_at}`;
  if (key.last_used_at !== null) json += `,"lastUsedAt":${key.last_used_at}`;
  if (key.expires !== null) json += `,"expires":${key.expires}`;
  if (key.permissions !== "[]") json += `,"permissions":${key.permissions}`;
  if (key.roles !== "[]") json += `,"roles":${key.roles}`;
  const credits = creditsJson(key);
  if (credits !== undefined) json += `,"credits":${credits}`;
  const identity = identityJson(key);
  if (identity !== undefined) json += `,"identity":${identity}`;
  if (key.ratelimits !== "[]") json += `,"ratelimits":${key.ratelimits}`;
  return `${json}}`;
}

export function keysJson(keys: readonly KeyRecord[], nameless: NamelessKey = "without name"): string {
  return `[${keys.map((key) => keyJson(key, nameless)).join(",")}]`;
}

/** `{remaining, refill?}`, or undefined for a key with unlimited use and no refill. */
export function creditsJson(key: KeyRecord): string | undefined {
  if (key.credits_remaining === null && key.refill_interval === null) return undefined;
  let json = `{"remaining":${key.credits_remaining ?? "null"}`;
  if (key.refill_interval !== null && key.refill_amount !== null) {
    json += `,"refill":{"interval":"${key.refill_interval}","amount":${key.refill_amount}`;
    if (key.refill_interval === "monthly") json += `,"refillDay":${key.refill_day ?? 1}`;
    json += "}";
  }
  return `${json}}`;
}

/** `{id, externalId, meta?, ratelimits?}`, or undefined for a key that belongs to no identity. */
export function identityJson(key: KeyRecord): string | undefined {
  if (key.identity_id === null || key.external_id === null) return undefined;
  let json = `{"id":${JSON.stringify(key.identity_id)},"externalId":${JSON.stringify(key.external_id)}`;
  if (key.identity_meta !== null) json += `,"meta":${key.identity_meta}`;
  if (key.identity_ratelimits !== "[]") json += `,"ratelimits":${key.identity_ratelimits}`;
  return `${json}}`;
}
