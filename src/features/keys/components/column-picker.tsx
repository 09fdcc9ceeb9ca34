import { ALWAYS_SHOWN, COLUMN_SPECS } from "../key-columns";
import type { KeysTableModel } from "../use-keys-table";

/** Choose the table's columns; the choice is remembered in this browser (column names only). */
export function ColumnPicker({ model }: { model: KeysTableModel }) {
  return (
    <details className="keys-columns">
      <summary className="button">Columns</summary>
      <fieldset className="keys-columns__menu">
        <legend className="visually-hidden">Columns to show</legend>
        {model.offered.map((id) => {
          const column = model.table.getColumn(id);
          return (
            <label key={id} className="keys-columns__choice">
              <input
                type="checkbox"
                checked={column?.getIsVisible() ?? false}
                disabled={ALWAYS_SHOWN.has(id)}
                onChange={(event) => column?.toggleVisibility(event.target.checked)}
              />
              {COLUMN_SPECS[id].label}
            </label>
          );
        })}
      </fieldset>
    </details>
  );
}
