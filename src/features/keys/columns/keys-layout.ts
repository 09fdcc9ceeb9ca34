/** The keys table's fixed geometry. */

/** Fixed, so the virtualizer never has to measure: 100,000 rows cost what the visible ones cost. */
export const ROW_HEIGHT = 52;
export const HEADER_HEIGHT = 40;
export const COMPACT_QUERY = "(max-width: 640px)";

/** keys.css: the keys page is at most 1,600 px wide, with this much padding on either side. */
const KEYS_PAGE_MAX_WIDTH = 1600;
export const KEYS_PAGE_PADDING = { wide: 24, compact: 12 } as const;

/**
 * The list's width before anything is laid out, from the window alone: the columns that fit are chosen in the
 * first render, and the measured width (a scrollbar less, say) only corrects it before the first paint.
 */
export function estimatedListWidth(compact: boolean): number {
  const viewport = typeof window === "undefined" ? 0 : window.innerWidth;
  return Math.min(viewport, KEYS_PAGE_MAX_WIDTH) - 2 * KEYS_PAGE_PADDING[compact ? "compact" : "wide"];
}

/** The selection column's width (a checkbox), before the data columns, when rows can be selected. */
export const SELECT_COLUMN_WIDTH = 40;
