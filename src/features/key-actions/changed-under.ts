import type { Key } from "@/lib/contract";

/** A field of a key that a form shows and another tab, or another client, may change while the form is open. */
export type KeyField =
  "name" | "expires" | "externalId" | "meta" | "enabled" | "credits" | "ratelimits" | "permissions" | "roles";

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sorted = (names: readonly string[] | undefined) => [...(names ?? [])].sort();

/** Each field's value as it counts here: rate limits without their ids, names in any order. */
const VALUE_OF: Record<KeyField, (key: Key) => unknown> = {
  name: (key) => key.name?.trim() || undefined,
  expires: (key) => key.expires,
  externalId: (key) => key.identity?.externalId,
  meta: (key) => key.meta,
  enabled: (key) => key.enabled !== false,
  credits: (key) => key.credits,
  ratelimits: (key) =>
    (key.ratelimits ?? []).map(({ name, limit, duration, autoApply }) => ({ name, limit, duration, autoApply })),
  permissions: (key) => sorted(key.permissions),
  roles: (key) => sorted(key.roles),
};

/** What changed of `fields` from the key as a form opened on it to the key as it is now. */
export function changedFields(opened: Key, now: Key, fields: readonly KeyField[]): KeyField[] {
  return fields.filter((field) => !same(VALUE_OF[field](opened), VALUE_OF[field](now)));
}

/** "it is now disabled", "its name is now “Billing”": a change, said of the key. */
export function describeChange(field: KeyField, now: Key): string {
  switch (field) {
    case "enabled":
      return now.enabled === false ? "it is now disabled" : "it is now enabled";
    case "name":
      return now.name?.trim() ? `its name is now “${now.name.trim()}”` : "it has no name now";
    case "expires":
      return now.expires === undefined ? "it now never expires" : "its expiry changed";
    case "externalId":
      return "its external id changed";
    case "credits":
      return "its credits changed";
    case "ratelimits":
      return "its rate limits changed";
    case "permissions":
      return "its permissions changed";
    case "roles":
      return "its roles changed";
    case "meta":
      return "its meta changed";
  }
}

/** "a, b and c". */
export function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1) ?? ""}`;
}
