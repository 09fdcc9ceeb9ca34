/** What the key-changing operations send and answer, shared by their one-file clients. */
import * as v from "valibot";
import type { CreditsInput, RatelimitInput, RefillInput } from "./key-fields";

/** The fields keys.createKey and keys.updateKey share; on update, `null` clears a field. */
export interface KeyFieldsInput {
  name?: string | null;
  externalId?: string | null;
  meta?: Record<string, unknown> | null;
  /** Unix milliseconds. */
  expires?: number | null;
  credits?: CreditsInput | null;
  ratelimits?: RatelimitInput[];
  enabled?: boolean;
  roles?: string[];
  permissions?: string[];
}

/**
 * keys.updateKey's credits: `remaining` and `refill` each left out (kept), `null` (remaining: unlimited, which also
 * ends the refill; refill: no refill) or given; the whole of it `null` is unlimited with no refill.
 */
export interface CreditsUpdate {
  remaining?: number | null;
  refill?: RefillInput | null;
}

/**
 * keys.updateKey's fields: a field left out stays, `null` clears it. `ratelimits`, `permissions` and `roles` replace
 * the key's own (an empty array removes them all; the service takes no `null` for them).
 */
export interface KeyUpdateInput extends Omit<KeyFieldsInput, "credits"> {
  credits?: CreditsUpdate | null;
}

/** createKey and rerollKey answer the new secret once: the caller shows it and drops it, nothing keeps it. */
export const NewSecretSchema = v.looseObject({
  keyId: v.pipe(v.string(), v.minLength(1)),
  key: v.pipe(v.string(), v.minLength(1)),
});

/**
 * Answers that carry nothing (updateKey, deleteKey, deleteIdentity): any object, the real service's empty data, or no
 * `data` at all (deleteIdentity answers `{meta}` alone on both services).
 */
export const EmptyDataSchema = v.optional(v.unknown());

export const PermissionSchema = v.looseObject({
  id: v.string(),
  name: v.string(),
  slug: v.optional(v.string()),
  description: v.optional(v.string()),
});
export type Permission = v.InferOutput<typeof PermissionSchema>;

export const RoleSchema = v.looseObject({
  id: v.string(),
  name: v.string(),
  description: v.optional(v.string()),
  permissions: v.optional(v.array(PermissionSchema)),
});
export type Role = v.InferOutput<typeof RoleSchema>;
