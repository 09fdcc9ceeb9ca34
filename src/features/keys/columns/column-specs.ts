import type { Key } from "@/lib/contract";
import { hasStatusFields } from "../utils/key-status";

/**
 * The Keys table's columns: their labels, widths, and which keys give them something to show. Pure and without
 * the table library.
 */

export type ColumnId =
  "name" | "keyId" | "start" | "status" | "lastUsed" | "usage" | "credits" | "externalId" | "createdAt" | "expires";

export interface ColumnSpec {
  label: string;
  width: string;
  minWidth: number;
  /** Whether a key carries what the column shows; a column no loaded key has a value for is not offered. */
  present?: (key: Key) => boolean;
  /** Off until the person turns it on. */
  hiddenByDefault?: boolean;
}

export const COLUMN_SPECS: Record<ColumnId, ColumnSpec> = {
  name: { label: "Name", width: "minmax(180px, 1.4fr)", minWidth: 180 },
  keyId: { label: "Key ID", width: "minmax(210px, 1fr)", minWidth: 210 },
  start: {
    label: "Prefix",
    width: "minmax(120px, 0.6fr)",
    minWidth: 120,
    present: (key) => key.start !== undefined,
    hiddenByDefault: true,
  },
  status: {
    label: "Status",
    // "Expires within 24 h", the longest badge, on one line.
    width: "minmax(190px, 1fr)",
    minWidth: 190,
    present: hasStatusFields,
  },
  lastUsed: {
    label: "Last used",
    width: "minmax(130px, 0.7fr)",
    minWidth: 130,
    present: (key) => key.lastUsedAt !== undefined || key.createdAt !== undefined,
  },
  usage: { label: "Usage, 36 h", width: "minmax(150px, 0.7fr)", minWidth: 150 },
  credits: {
    label: "Credits",
    width: "minmax(100px, 0.5fr)",
    minWidth: 100,
    present: (key) => key.credits !== undefined,
  },
  externalId: {
    label: "External ID",
    width: "minmax(140px, 0.7fr)",
    minWidth: 140,
    present: (key) => key.identity !== undefined,
  },
  createdAt: {
    label: "Created",
    width: "minmax(120px, 0.6fr)",
    minWidth: 120,
    present: (key) => key.createdAt !== undefined,
    hiddenByDefault: true,
  },
  expires: {
    label: "Expires",
    width: "minmax(120px, 0.6fr)",
    minWidth: 120,
    present: (key) => key.expires !== undefined,
  },
};

export const COLUMN_ORDER: readonly ColumnId[] = [
  "name",
  "keyId",
  "status",
  "lastUsed",
  "usage",
  "credits",
  "externalId",
  "start",
  "createdAt",
  "expires",
];

/** Columns that cannot be hidden: a row must always say which key it is. */
export const ALWAYS_SHOWN: ReadonlySet<ColumnId> = new Set(["name"]);

/** The columns whose field at least one key carries (name, id and usage always). */
export function presentColumns(keys: readonly Key[]): Set<ColumnId> {
  const present = new Set<ColumnId>(["name", "keyId", "usage"]);
  const pending = COLUMN_ORDER.filter((id) => !present.has(id));
  for (const key of keys) {
    for (const id of pending) if (!present.has(id) && COLUMN_SPECS[id].present?.(key)) present.add(id);
    if (present.size === COLUMN_ORDER.length) break;
  }
  return present;
}
