import * as v from "valibot";
import type { IdentityRatelimitInput } from "@/lib/api/create-identity";
import type { NewIdentity } from "@/lib/api/create-identity";
import { ExternalIdSchema, type RatelimitInput } from "@/lib/api/key-fields";
import type { KeyIdentity } from "@/lib/contract";
import { MetaTextSchema } from "@/lib/field-text";
import { ratelimitRows, RatelimitRowsSchema, type RatelimitRow } from "@/lib/ratelimit-rows";

/**
 * The identity forms' fields as typed, and the schemas that read them into what createIdentity and updateIdentity
 * send: each problem at its field, nothing read as something else. The bounds are the services' (the same rules as a
 * key's external id, meta and rate limits).
 */

/** An identity's limits as sent: the services require `autoApply` for an identity's (a key's may leave it out). */
export function asIdentityLimits(limits: readonly RatelimitInput[]): IdentityRatelimitInput[] {
  return limits.map(({ name, limit, duration, autoApply }) => ({
    name,
    limit,
    duration,
    autoApply: autoApply ?? false,
  }));
}

export const CreateIdentitySchema = v.pipe(
  v.object({
    externalId: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty("Give it an external id: your system’s id for the customer, like user_123"),
      ExternalIdSchema,
    ),
    meta: MetaTextSchema,
    ratelimits: RatelimitRowsSchema,
  }),
  v.transform((read): NewIdentity => ({
    externalId: read.externalId,
    ...(read.meta !== undefined && { meta: read.meta }),
    ...(read.ratelimits.length > 0 && { ratelimits: asIdentityLimits(read.ratelimits) }),
  })),
);

export interface CreateIdentityDraft {
  externalId: string;
  meta: string;
  ratelimits: RatelimitRow[];
}

export const EMPTY_IDENTITY: CreateIdentityDraft = { externalId: "", meta: "", ratelimits: [] };

export interface EditIdentityDraft {
  meta: string;
  ratelimits: RatelimitRow[];
}

/** Meta as the form shows it: indented JSON, empty for none. */
export function metaText(meta: Record<string, unknown> | undefined): string {
  return meta === undefined || Object.keys(meta).length === 0 ? "" : JSON.stringify(meta, null, 2);
}

export function editDraft(identity: KeyIdentity): EditIdentityDraft {
  return { meta: metaText(identity.meta), ratelimits: ratelimitRows(identity.ratelimits) };
}

export const EditIdentitySchema = v.object({ meta: MetaTextSchema, ratelimits: RatelimitRowsSchema });

/**
 * What updateIdentity sends for the form as read: only what changed since it opened; meta emptied is `{}` and no
 * rate limits `[]`, which clear them (the services take no `null` here). Undefined when nothing changed.
 */
export function identityChanges(
  opened: EditIdentityDraft,
  read: v.InferOutput<typeof EditIdentitySchema>,
  typed: EditIdentityDraft,
): { meta?: Record<string, unknown>; ratelimits?: IdentityRatelimitInput[] } | undefined {
  const changes: { meta?: Record<string, unknown>; ratelimits?: IdentityRatelimitInput[] } = {};
  if (typed.meta.trim() !== opened.meta.trim()) changes.meta = read.meta ?? {};
  if (JSON.stringify(typed.ratelimits) !== JSON.stringify(opened.ratelimits))
    changes.ratelimits = asIdentityLimits(read.ratelimits);
  return Object.keys(changes).length === 0 ? undefined : changes;
}
