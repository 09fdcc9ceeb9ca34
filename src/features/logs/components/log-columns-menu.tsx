import { ALWAYS_SHOWN, LOG_COLUMN_ORDER, LOG_COLUMN_SPECS, type LogColumnId } from "../columns/log-columns";

/**
 * Choose the log's columns, as on the Keys page: remembered in this browser (column names only); a chosen column the
 * width has no room for says so, and the summary counts them.
 */
export function LogColumnsMenu({
  chosen,
  folded,
  onChoose,
}: {
  chosen: readonly LogColumnId[];
  folded: readonly LogColumnId[];
  onChoose: (id: LogColumnId, on: boolean) => void;
}) {
  const foldedSet = new Set(folded);
  return (
    <details className="log-columns">
      <summary className="button">
        Columns
        {folded.length > 0 && <span className="log-columns__folded-count"> ({folded.length} folded)</span>}
      </summary>
      <fieldset className="log-columns__menu">
        <legend className="visually-hidden">Columns to show</legend>
        {folded.length > 0 && (
          <p className="log-columns__hint">
            Too narrow for every chosen column: the folded ones show on a wider screen, or when you turn others off.
            Every field is in a row&apos;s details.
          </p>
        )}
        {LOG_COLUMN_ORDER.map((id) => (
          <label key={id} className="log-columns__choice">
            <input
              type="checkbox"
              checked={chosen.includes(id)}
              disabled={ALWAYS_SHOWN.has(id)}
              onChange={(event) => onChoose(id, event.target.checked)}
            />
            {LOG_COLUMN_SPECS[id].label}
            {foldedSet.has(id) && <span className="log-columns__folded"> — folded at this width</span>}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
