import { useId, type ReactNode } from "react";

interface KeysToolbarProps {
  filter: string;
  onFilterChange: (value: string) => void;
  /** "3 of 25 keys shown" and the like. */
  count: string;
  /** The keys shown may not be current (offline, or the last refresh failed). */
  stale: boolean;
  /** The column picker, refresh and export controls, after the filter and the count. */
  children: ReactNode;
}

/** Above the keys table: the text filter, how many keys are shown, and the list's controls. */
export function KeysToolbar({ filter, onFilterChange, count, stale, children }: KeysToolbarProps) {
  const filterId = useId();
  return (
    <div className="keys-toolbar">
      <div className="keys-toolbar__filter">
        <label htmlFor={filterId} className="visually-hidden">
          Filter keys
        </label>
        <SearchIcon />
        <input
          id={filterId}
          className="input"
          type="search"
          value={filter}
          onChange={(event) => onFilterChange(event.target.value)}
          placeholder="Filter by name, key id or prefix"
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <p className="keys-toolbar__count" role="status">
        {count}
        {stale && <span className="keys-toolbar__stale"> · not current</span>}
      </p>
      {children}
    </div>
  );
}

function SearchIcon() {
  return (
    <svg className="keys-toolbar__icon" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
      <circle cx="9" cy="9" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="m13.5 13.5 3.5 3.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
