/** The Edit form's state and what it sends: the fields keys.updateKey takes, each sent only when it was changed. */
import type { KeyUpdateInput, Role } from "@/lib/api/key-changes";
import type { Key, KeyRatelimit } from "@/lib/contract";
import type { RateLimit } from "@/lib/key-facts";
import { effectivePermissions, type KeyAccess } from "../key-access";
import { accessChanges, UNTOUCHED_ACCESS, type AccessDraft } from "./access-fields";
import {
  creditsDraft,
  creditsUpdate,
  parseCredits,
  parseExpires,
  parseMeta,
  parseRatelimits,
  ratelimitRows,
  type CreditsDraft,
  type RatelimitRow,
} from "./key-form-fields";

export interface EditDraft {
  name: string;
  /** A `datetime-local` value; empty: never expires. */
  expires: string;
  externalId: string;
  /** JSON text. */
  meta: string;
  enabled: boolean;
  credits: CreditsDraft;
  ratelimits: RatelimitRow[];
  access: AccessDraft;
}

/** A `datetime-local` value for an instant, in the user's time zone. */
export function localInput(at: number | undefined): string {
  if (at === undefined) return "";
  const date = new Date(at);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The form as the key is now. */
export function editDraft(key: Key, now: number): EditDraft {
  return {
    name: key.name ?? "",
    expires: localInput(key.expires),
    externalId: key.identity?.externalId ?? "",
    meta: key.meta === undefined ? "" : JSON.stringify(key.meta, null, 2),
    enabled: key.enabled !== false,
    credits: creditsDraft(key.credits, now),
    ratelimits: ratelimitRows(key.ratelimits),
    access: UNTOUCHED_ACCESS,
  };
}

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

interface EditContext {
  key: Key;
  access: KeyAccess;
  workspaceRoles: readonly Role[] | undefined;
  now: number;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What to send for the changes from `initial` (the form as it opened) to `draft`, and what the page may show at once;
 * or what is wrong with the form. Compared with the form as it opened, not the key as it is now: credits spent while
 * the form is open are not put back by a field nobody touched.
 */
export function editChanges(
  initial: EditDraft,
  draft: EditDraft,
  { key, access, workspaceRoles, now }: EditContext,
): { changes: KeyUpdateInput; optimistic: Partial<Key> } | string {
  const changes: KeyUpdateInput = {};
  const optimistic: Partial<Key> = {};
  if (draft.name.trim() !== initial.name.trim()) {
    changes.name = draft.name.trim() === "" ? null : draft.name.trim();
    optimistic.name = changes.name ?? undefined;
  }
  if (draft.expires !== initial.expires) {
    const at = parseExpires(draft.expires, now);
    if (!at.ok) return `Expires: ${at.error}`;
    changes.expires = at.value ?? null;
    optimistic.expires = at.value;
  }
  if (draft.externalId.trim() !== initial.externalId.trim())
    changes.externalId = draft.externalId.trim() === "" ? null : draft.externalId.trim();
  if (draft.meta !== initial.meta) {
    const meta = parseMeta(draft.meta);
    if (!meta.ok) return `Meta: ${meta.error}`;
    const before = parseMeta(initial.meta);
    if (!before.ok || !same(meta.value, before.value)) {
      changes.meta = meta.value ?? null;
      optimistic.meta = meta.value;
    }
  }
  if (draft.enabled !== initial.enabled) {
    changes.enabled = draft.enabled;
    optimistic.enabled = draft.enabled;
  }
  if (!same(draft.credits, initial.credits)) {
    const after = parseCredits(draft.credits);
    if (!after.ok) return `Credits: ${after.error}`;
    const before = parseCredits(initial.credits);
    const update = creditsUpdate(before.ok ? before.value : key.credits, after.value);
    if (update !== undefined) {
      changes.credits = update;
      optimistic.credits = after.value;
    }
  }
  const rows = (list: readonly RatelimitRow[]) =>
    list.filter((row) => row.name.trim() !== "" || row.limit.trim() !== "" || row.seconds.trim() !== "");
  if (!same(rows(draft.ratelimits), rows(initial.ratelimits))) {
    const limits = parseRatelimits(draft.ratelimits);
    if (!limits.ok) return limits.error;
    // The service replaces the key's limits with the list: one left out is removed, an empty list removes them all.
    changes.ratelimits = limits.value;
    optimistic.ratelimits = limits.value.map((limit): KeyRatelimit => ({
      id: key.ratelimits?.find((old) => old.name === limit.name)?.id ?? "",
      autoApply: false,
      ...limit,
    }));
  }
  const picked = accessChanges(draft.access, key, access);
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
