/** The Edit form's fields, the schema that reads them, and what it sends: each field only when it was changed. */
import * as v from "valibot";
import type { KeyUpdateInput, Role } from "@/lib/api/key-changes";
import type { Key, KeyRatelimit } from "@/lib/contract";
import { localDateTimeText, NO_DATE_TIME, type DateTimeText, MetaTextSchema } from "@/lib/field-text";
import type { RateLimit } from "@/lib/key-facts";
import type { KeyField } from "../changed-under";
import { effectivePermissions, type KeyAccess } from "../key-access";
import { accessChanges, AccessDraftSchema, UNTOUCHED_ACCESS, type AccessDraft } from "./access-fields";
import { ratelimitRows, RatelimitRowsSchema, type RatelimitRow } from "@/lib/ratelimit-rows";
import {
  creditsDraft,
  CreditsDraftSchema,
  creditsUpdate,
  ExternalIdTextSchema,
  expiresText,
  KEPT,
  NameTextSchema,
  parseCredits,
  unlessAsOpened,
  type CreditsDraft,
} from "./key-form-fields";

export interface EditDraft {
  name: string;
  /** Empty: never expires. */
  expires: DateTimeText;
  externalId: string;
  /** JSON text. */
  meta: string;
  enabled: boolean;
  credits: CreditsDraft;
  ratelimits: RatelimitRow[];
  access: AccessDraft;
}

/** The Expires field at an instant, in the user's time zone. */
export function expiresAt(at: number | undefined): DateTimeText {
  return at === undefined ? NO_DATE_TIME : { text: localDateTimeText(at), incomplete: false };
}

/** The form as the key is now. */
export function editDraft(key: Key, now: number): EditDraft {
  return {
    name: key.name ?? "",
    expires: expiresAt(key.expires),
    externalId: key.identity?.externalId ?? "",
    meta: key.meta === undefined ? "" : JSON.stringify(key.meta, null, 2),
    enabled: key.enabled !== false,
    credits: creditsDraft(key.credits, now),
    ratelimits: ratelimitRows(key.ratelimits),
    access: UNTOUCHED_ACCESS,
  };
}

/** The form's fields that show each of the key's fields another tab may change. */
export const EDIT_FIELDS: Record<KeyField, keyof EditDraft> = {
  name: "name",
  expires: "expires",
  externalId: "externalId",
  meta: "meta",
  enabled: "enabled",
  credits: "credits",
  ratelimits: "ratelimits",
  permissions: "access",
  roles: "access",
};

/**
 * The verdict's "Raise limit": the key's limit of that name at twice its requests (one of the key's own of the same
 * name is added when the limit is its identity's: it takes the identity's place for this key). The row to focus with it.
 */
export function raiseLimit(draft: EditDraft, limit: RateLimit): { draft: EditDraft; row: number } {
  const raised = String(limit.limit * 2);
  const row = draft.ratelimits.findIndex((candidate) => candidate.name === limit.name);
  if (row >= 0)
    return {
      draft: {
        ...draft,
        ratelimits: draft.ratelimits.map((candidate, at) => (at === row ? { ...candidate, limit: raised } : candidate)),
      },
      row,
    };
  const added: RatelimitRow = {
    name: limit.name,
    limit: raised,
    seconds: String(limit.duration / 1000),
    autoApply: true,
  };
  return { draft: { ...draft, ratelimits: [...draft.ratelimits, added] }, row: draft.ratelimits.length };
}

/** Rows nobody began count as none: adding an empty row changes nothing. */
const begun = (rows: readonly RatelimitRow[]) =>
  rows.filter((row) => row.name.trim() !== "" || row.limit.trim() !== "" || row.seconds.trim() !== "");

/**
 * The Edit form read: each field as typed, or KEPT while it is as the form opened on the key (`opened`), so that a
 * value the key had (a past expiry, a limit named before the bounds) is not refused, nor sent again.
 */
export function editSchema(opened: EditDraft, now: number) {
  return v.object({
    name: unlessAsOpened(NameTextSchema, opened.name, (name) => name.trim()),
    expires: unlessAsOpened(expiresText(now), opened.expires),
    externalId: unlessAsOpened(ExternalIdTextSchema, opened.externalId, (id) => id.trim()),
    meta: unlessAsOpened(MetaTextSchema, opened.meta),
    enabled: v.boolean(),
    credits: unlessAsOpened(CreditsDraftSchema, opened.credits),
    ratelimits: unlessAsOpened(RatelimitRowsSchema, opened.ratelimits, begun),
    access: AccessDraftSchema,
  });
}

export type EditRead = v.InferOutput<ReturnType<typeof editSchema>>;

interface EditContext {
  /** The form's fields as it opened. */
  opened: EditDraft;
  key: Key;
  access: KeyAccess;
  workspaceRoles: readonly Role[] | undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What to send for the fields changed since the form opened, and what the page may show at once. Compared with the
 * form as it opened, not the key as it is now: credits spent while the form is open are not put back by a field
 * nobody touched.
 */
export function editChanges(
  read: EditRead,
  { opened, key, access, workspaceRoles }: EditContext,
): { changes: KeyUpdateInput; optimistic: Partial<Key> } {
  const changes: KeyUpdateInput = {};
  const optimistic: Partial<Key> = {};
  if (read.name !== KEPT) {
    changes.name = read.name ?? null;
    optimistic.name = read.name;
  }
  if (read.expires !== KEPT) {
    changes.expires = read.expires ?? null;
    optimistic.expires = read.expires;
  }
  if (read.externalId !== KEPT) changes.externalId = read.externalId ?? null;
  if (read.meta !== KEPT) {
    const before = v.safeParse(MetaTextSchema, opened.meta);
    if (!before.success || !same(read.meta, before.output)) {
      changes.meta = read.meta ?? null;
      optimistic.meta = read.meta;
    }
  }
  if (read.enabled !== opened.enabled) {
    changes.enabled = read.enabled;
    optimistic.enabled = read.enabled;
  }
  if (read.credits !== KEPT) {
    const before = parseCredits(opened.credits);
    const update = creditsUpdate(before.ok ? before.value : key.credits, read.credits);
    if (update !== undefined) {
      changes.credits = update;
      optimistic.credits = read.credits;
    }
  }
  if (read.ratelimits !== KEPT) {
    // The service replaces the key's limits with the list: one left out is removed, an empty list removes them all.
    changes.ratelimits = read.ratelimits;
    optimistic.ratelimits = read.ratelimits.map((limit): KeyRatelimit => ({
      id: key.ratelimits?.find((old) => old.name === limit.name)?.id ?? "",
      autoApply: false,
      ...limit,
    }));
  }
  const picked = accessChanges(read.access, key, access);
  if (picked.roles !== undefined) {
    changes.roles = picked.roles;
    optimistic.roles = picked.roles;
  }
  if (picked.permissions !== undefined) changes.permissions = picked.permissions;
  if (picked.permissions !== undefined || picked.roles !== undefined) {
    const shown = effectivePermissions(
      picked.permissions ?? access.direct,
      picked.roles ?? key.roles ?? [],
      workspaceRoles,
    );
    if (shown !== undefined) optimistic.permissions = shown;
  }
  return { changes, optimistic };
}
