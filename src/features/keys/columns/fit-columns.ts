import { COLUMN_SPECS, type ColumnId } from "./column-specs";

/**
 * Which of the chosen columns the Keys table can show at a width without scrolling sideways: the rest fold
 * away, lowest priority first, and the column picker says so. Pure, so every width is tested without a browser.
 */

/** Most wanted first: which key, what is wrong with it, how it is used; the details fold first. */
export const FOLD_PRIORITY: readonly ColumnId[] = [
  "name",
  "status",
  "usage",
  "lastUsed",
  "keyId",
  "credits",
  "externalId",
  "expires",
  "start",
  "createdAt",
];

/**
 * On a phone each row is a card: the name, its badges, the usage bar and the id always have a line of their
 * own; the other fields share one line of small labelled values, as many as fit.
 */
const CARD_LINE_FIELDS: Partial<Record<ColumnId, number>> = {
  lastUsed: 128,
  credits: 84,
  expires: 128,
  externalId: 120,
  start: 104,
  createdAt: 124,
};

export interface FittedColumns {
  /** In the table's order. */
  shown: ColumnId[];
  /** Chosen, but not shown at this width. */
  folded: ColumnId[];
}

/** The table's border, and on a card its padding on either side. */
const TABLE_BORDER = 2;
const CARD_PADDING = 24;

export interface FitOptions {
  /** The width the table's box may take, in CSS pixels; 0 (not laid out yet) folds nothing. */
  width: number;
  compact: boolean;
  /** Shown before the other columns when space is short: the sorted one, and those the person turned on. */
  pinned?: ReadonlySet<ColumnId>;
}

export function fitColumns(
  chosen: readonly ColumnId[],
  { width, compact, pinned = new Set() }: FitOptions,
): FittedColumns {
  if (!(width > 0)) return { shown: [...chosen], folded: [] };
  const room = width - TABLE_BORDER - (compact ? CARD_PADDING : 0);
  const byPriority = [...chosen].sort((a, b) => rank(a, pinned) - rank(b, pinned));
  const kept = new Set<ColumnId>();
  let used = 0;
  for (const id of byPriority) {
    const cost = compact ? (CARD_LINE_FIELDS[id] ?? 0) : COLUMN_SPECS[id].minWidth;
    // The name always shows: a row must say which key it is.
    if (id === "name" || used + cost <= room) {
      kept.add(id);
      used += cost;
    }
  }
  return { shown: chosen.filter((id) => kept.has(id)), folded: chosen.filter((id) => !kept.has(id)) };
}

function rank(id: ColumnId, pinned: ReadonlySet<ColumnId>): number {
  const priority = FOLD_PRIORITY.indexOf(id);
  if (id === "name") return -1;
  return pinned.has(id) ? priority : FOLD_PRIORITY.length + priority;
}
