import { useId } from "react";
import { COLUMN_SPECS, type ColumnId } from "../columns/column-specs";
import type { KeysTableModel } from "../hooks/use-keys-table";

/** How each column's two directions read, and which comes first when the column is chosen. */
const DIRECTIONS: Record<ColumnId, { asc: string; desc: string; first: "asc" | "desc" }> = {
  name: { asc: "A to Z", desc: "Z to A", first: "asc" },
  keyId: { asc: "A to Z", desc: "Z to A", first: "asc" },
  start: { asc: "A to Z", desc: "Z to A", first: "asc" },
  status: { asc: "Fine first", desc: "Worst first", first: "desc" },
  lastUsed: { asc: "Longest ago first", desc: "Most recent first", first: "desc" },
  usage: { asc: "Least used first", desc: "Most used first", first: "desc" },
  credits: { asc: "Fewest first", desc: "Most first", first: "asc" },
  externalId: { asc: "A to Z", desc: "Z to A", first: "asc" },
  createdAt: { asc: "Oldest first", desc: "Newest first", first: "desc" },
  expires: { asc: "Soonest first", desc: "Latest first", first: "asc" },
};

/** On a phone, where rows are cards without clickable headers: a labelled "Sort by" and its direction. */
export function SortControl({ model }: { model: KeysTableModel }) {
  const id = useId();
  const current = model.sorting[0];
  const column = current !== undefined && current.id in COLUMN_SPECS ? (current.id as ColumnId) : null;
  return (
    <div className="keys-sort" aria-busy={model.awaitedSort !== null || undefined}>
      <label htmlFor={`${id}-by`} className="keys-sort__label">
        Sort by
      </label>
      <select
        id={`${id}-by`}
        className="input keys-sort__select"
        value={column ?? ""}
        onChange={(event) => {
          const chosen = model.offered.find((offered) => offered === event.target.value);
          model.sortBy(chosen === undefined ? null : { id: chosen, desc: DIRECTIONS[chosen].first === "desc" });
        }}
      >
        <option value="">Loaded order</option>
        {model.offered.map((offered) => (
          <option key={offered} value={offered}>
            {COLUMN_SPECS[offered].label}
          </option>
        ))}
      </select>
      {column !== null && current !== undefined && (
        <>
          <label htmlFor={`${id}-direction`} className="visually-hidden">
            Sort direction
          </label>
          <select
            id={`${id}-direction`}
            className="input keys-sort__select"
            value={current.desc ? "desc" : "asc"}
            onChange={(event) => model.sortBy({ id: column, desc: event.target.value === "desc" })}
          >
            {(DIRECTIONS[column].first === "desc" ? (["desc", "asc"] as const) : (["asc", "desc"] as const)).map(
              (direction) => (
                <option key={direction} value={direction}>
                  {DIRECTIONS[column][direction]}
                </option>
              ),
            )}
          </select>
        </>
      )}
      {model.awaitedSort !== null && (
        <span className="keys-sort__label" aria-hidden="true">
          Sorting…
        </span>
      )}
    </div>
  );
}
