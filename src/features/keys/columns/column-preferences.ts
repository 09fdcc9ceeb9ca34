import * as v from "valibot";

/**
 * Which columns the Keys table shows, as the person chose them, in `localStorage` under one fixed name: never
 * with the key or its fingerprint, only column ids and true/false.
 */
export const COLUMN_PREFERENCES_KEY = "keyscope.keys.columns";

export type ColumnVisibility = Record<string, boolean>;

const Stored = v.record(v.pipe(v.string(), v.maxLength(40)), v.boolean());

export function readColumnVisibility(): ColumnVisibility {
  try {
    const raw = localStorage.getItem(COLUMN_PREFERENCES_KEY);
    if (raw === null) return {};
    const parsed = v.safeParse(Stored, JSON.parse(raw));
    return parsed.success ? parsed.output : {};
  } catch {
    // Storage may be off (private mode, a policy): the defaults then hold for this visit.
    return {};
  }
}

export function saveColumnVisibility(visibility: ColumnVisibility): void {
  try {
    localStorage.setItem(COLUMN_PREFERENCES_KEY, JSON.stringify(visibility));
  } catch {
    // As above: a choice that cannot be kept still applies until the page closes.
  }
}
