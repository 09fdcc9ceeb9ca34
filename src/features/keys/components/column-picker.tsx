import { ALWAYS_SHOWN, COLUMN_SPECS } from "../columns/column-specs";
import type { KeysTableModel } from "../hooks/use-keys-table";

/**
 * Choose the table's columns; the choice is remembered in this browser (column names only). A chosen column
 * the width has no room for says so, and the summary counts them.
 */
export function ColumnPicker({ model }: { model: KeysTableModel }) {
  const folded = new Set(model.foldedColumns);
  return (
    <details className="keys-columns">
      <summary className="button">
        Columns
        {folded.size > 0 && <span className="keys-columns__folded-count">({folded.size} folded)</span>}
      </summary>
      <fieldset className="keys-columns__menu">
        <legend className="visually-hidden">Columns to show</legend>
        {folded.size > 0 && (
          <p className="keys-columns__hint">
            Too narrow for every chosen column: the folded ones show on a wider screen, or when you turn others off.
          </p>
        )}
        {model.offered.map((id) => (
          <label key={id} className="keys-columns__choice">
            <input
              type="checkbox"
              checked={model.isChosen(id)}
              disabled={ALWAYS_SHOWN.has(id)}
              onChange={(event) => model.choose(id, event.target.checked)}
            />
            {COLUMN_SPECS[id].label}
            {folded.has(id) && <span className="keys-columns__folded"> — folded at this width</span>}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
