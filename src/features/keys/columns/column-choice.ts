import { readColumnVisibility, type ColumnVisibility } from "./column-preferences";
import { COLUMN_ORDER, COLUMN_SPECS, type ColumnId } from "./column-specs";
import { fitColumns } from "./fit-columns";

/** Which columns the Keys table shows: pure, shared by the table's model (use-keys-table) and the first paint. */

const DEFAULT_VISIBILITY: ColumnVisibility = Object.fromEntries(
  COLUMN_ORDER.filter((id) => COLUMN_SPECS[id].hiddenByDefault).map((id) => [id, false]),
);

/** The columns as the person chose them (remembered in this browser), over the defaults. */
export function initialColumnChoice(): ColumnVisibility {
  return { ...DEFAULT_VISIBILITY, ...readColumnVisibility() };
}

/** The columns offered: those whose field some key carries, and usage only when analytics may be read. */
export function offeredColumns(present: ReadonlySet<ColumnId>, usageAvailable: boolean): ColumnId[] {
  return COLUMN_ORDER.filter((id) => present.has(id) && (id !== "usage" || usageAvailable));
}

/**
 * Of the offered columns, those the person did not turn off, fitted to the width: the sorted column and the ones
 * the person turned on are the last to fold.
 */
export function fitChosenColumns(
  offered: readonly ColumnId[],
  chosen: ColumnVisibility,
  sortedIds: readonly string[],
  fit: { width: number; compact: boolean },
): { visible: ColumnId[]; shown: ColumnId[]; folded: ColumnId[] } {
  const visible = offered.filter((id) => chosen[id] !== false);
  const pinned = new Set(
    [...sortedIds, ...COLUMN_ORDER.filter((id) => chosen[id] === true)].filter((id): id is ColumnId =>
      Object.hasOwn(COLUMN_SPECS, id),
    ),
  );
  return { visible, ...fitColumns(visible, { ...fit, pinned }) };
}
