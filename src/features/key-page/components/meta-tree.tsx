import { useState } from "react";
import { SafeName } from "@/components/safe-name";
import { formatCount, formatCountOf } from "@/lib/format-number";

/** Entries of an object or array shown before "Show more"; a 1 MB meta stays quick to open. */
export const ENTRIES_SHOWN = 50;
const ENTRIES_STEP = 1000;
/** Characters of a string shown before "Show all". */
export const STRING_SHOWN = 300;
/** Deeper than this, nesting is summarised: a hostile meta cannot make the page recurse without end. */
const MAX_DEPTH = 30;

/**
 * A JSON value (a key's or an identity's meta) as a readable tree: objects and arrays collapse, long ones
 * show their first entries, every string and name is plain text (never a link, markup or a direction override).
 */
export function MetaTree({ value, label }: { value: unknown; label: string }) {
  if (!isContainer(value)) {
    return (
      <div className="meta-tree">
        <Scalar value={value} />
      </div>
    );
  }
  return (
    <div className="meta-tree" role="group" aria-label={label}>
      <Entries value={value} depth={0} />
    </div>
  );
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function entriesOf(value: Container): [string, unknown][] {
  return Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
}

function Entries({ value, depth }: { value: Container; depth: number }) {
  const [shown, setShown] = useState(ENTRIES_SHOWN);
  const entries = entriesOf(value);
  if (entries.length === 0)
    return <span className="meta-tree__empty">{Array.isArray(value) ? "empty list" : "empty object"}</span>;
  const rest = entries.length - shown;
  return (
    <ul className="meta-tree__entries">
      {entries.slice(0, shown).map(([name, item]) => (
        <li key={name} className="meta-tree__entry">
          {isContainer(item) ? (
            <Branch name={name} value={item} depth={depth + 1} index={Array.isArray(value)} />
          ) : (
            <>
              <Name name={name} index={Array.isArray(value)} />
              <Scalar value={item} />
            </>
          )}
        </li>
      ))}
      {rest > 0 && (
        <li className="meta-tree__entry">
          <button
            type="button"
            className="button button--small"
            onClick={() => setShown((count) => count + ENTRIES_STEP)}
          >
            {rest <= ENTRIES_STEP
              ? `Show all ${formatCount(entries.length)}`
              : `Show ${formatCount(ENTRIES_STEP)} more`}{" "}
            ({formatCount(rest)} hidden)
          </button>
        </li>
      )}
    </ul>
  );
}

function Branch({ name, value, depth, index }: { name: string; value: Container; depth: number; index: boolean }) {
  // Closed branches render nothing inside: opening is what pays for them.
  const [open, setOpen] = useState(depth <= 1);
  const count = Array.isArray(value) ? value.length : Object.keys(value).length;
  const summary = Array.isArray(value) ? `[${formatCountOf(count, "item")}]` : `{${formatCountOf(count, "field")}}`;
  return (
    <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <Name name={name} index={index} />
        <span className="meta-tree__summary">{summary}</span>
      </summary>
      {open &&
        (depth >= MAX_DEPTH ? (
          <p className="meta-tree__empty">Nested deeper than {MAX_DEPTH} levels: not shown.</p>
        ) : (
          <Entries value={value} depth={depth} />
        ))}
    </details>
  );
}

function Name({ name, index }: { name: string; index: boolean }) {
  return (
    <span className={index ? "meta-tree__index" : "meta-tree__name"}>
      {index ? name : <SafeName>{name}</SafeName>}
      <span aria-hidden="true">: </span>
    </span>
  );
}

function Scalar({ value }: { value: unknown }) {
  const [all, setAll] = useState(false);
  if (typeof value === "string") {
    const long = value.length > STRING_SHOWN;
    return (
      <span className="meta-tree__string">
        “<SafeName>{long && !all ? value.slice(0, STRING_SHOWN) : value}</SafeName>
        {long && !all ? "…" : "”"}
        {long && (
          <button
            type="button"
            className="button button--small meta-tree__more"
            onClick={() => setAll((shown) => !shown)}
          >
            {all ? "Show less" : `Show all ${formatCount(value.length)} characters`}
          </button>
        )}
      </span>
    );
  }
  if (value === null) return <span className="meta-tree__literal">null</span>;
  if (typeof value === "number" || typeof value === "boolean")
    return <span className="meta-tree__literal">{String(value)}</span>;
  return <span className="meta-tree__literal">{typeof value}</span>;
}
