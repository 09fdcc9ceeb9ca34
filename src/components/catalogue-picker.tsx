import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { revealBidiControls } from "../lib/bidi";
import type { CatalogueSearch } from "../lib/hooks/use-catalogue-search";
import { SafeName } from "./safe-name";
import { Spinner } from "./spinner";
import "./catalogue-picker.css";

/** Fixed, so the virtualizer never measures: thousands of entries cost what the visible ones cost. */
const ROW_HEIGHT = 48;
const OVERSCAN = 8;
/** The list's height at most, as its CSS sets it. */
const LIST_HEIGHT = 240;
/** Start loading the next page this many entries before the end. */
const LOAD_AHEAD = 20;

export interface CataloguePickerProps {
  /** "Permissions", "Roles". */
  legend: string;
  /** One of them, lower case: "permission". */
  noun: string;
  picked: readonly string[];
  onPickedChange: (picked: string[]) => void;
  /** The catalogue searched on the server (src/lib/hooks/use-catalogue-search.ts). */
  search: CatalogueSearch;
  /**
   * What a text typed that no entry has may be offered as (a new permission, which the change creates): undefined
   * when it cannot be one; `problem` when the text is not a valid one.
   */
  newEntry?: ((text: string) => { label: string } | { problem: string } | undefined) | undefined;
  /** Said in place of the search when the catalogue cannot be listed (and what to do instead). */
  unlisted?: ReactNode;
  /** Said under the list. */
  children?: ReactNode;
}

/**
 * A pick list of the workspace's catalogue: what is picked (each removable), a search asked of the server as one
 * types, and the entries found, virtualized, more loaded as one scrolls. The search box is a combobox whose list is
 * always shown: Up and Down (and the page keys) move through the entries, Enter picks or unpicks the one marked; the
 * focus stays in the box.
 */
export function CataloguePicker({
  legend,
  noun,
  picked,
  onPickedChange,
  search,
  newEntry,
  unlisted,
  children,
}: CataloguePickerProps) {
  const id = useId();
  const ids = { input: `${id}-input`, list: `${id}-list`, status: `${id}-status`, picked: `${id}-picked` };
  const scrollRef = useRef<HTMLDivElement>(null);
  const typed = search.text.trim();
  const rows = search.entries ?? [];
  // Only once the entries are the search's own: a name listed in the previous search's would be offered wrongly.
  const offered = typed === "" || newEntry === undefined || search.stale ? undefined : newEntry(typed);
  const isListed = rows.some((entry) => entry.value.toLowerCase() === typed.toLowerCase());
  const [active, setActive] = useState(-1);
  const activeIndex = Math.min(active, rows.length - 1);
  // The virtualizer re-renders this component itself on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // The list's height before it is measured (and where nothing lays it out): its first entries are drawn at once.
    initialRect: { width: 0, height: LIST_HEIGHT },
    getItemKey: (index) => rows[index]?.value ?? index,
    overscan: OVERSCAN,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const last = virtualItems.at(-1);
  const { hasMore, loadMore, loading } = search;
  useEffect(() => {
    if (last !== undefined && last.index >= rows.length - 1 - LOAD_AHEAD && hasMore && !loading) loadMore();
  }, [last, rows.length, hasMore, loading, loadMore]);

  const toggle = (value: string) =>
    onPickedChange(picked.includes(value) ? picked.filter((item) => item !== value) : [...picked, value]);

  function moveTo(index: number) {
    const clamped = Math.min(rows.length - 1, Math.max(0, index));
    if (rows.length === 0) return;
    setActive(clamped);
    virtualizer.scrollToIndex(clamped, { align: "auto" });
  }
  const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? LIST_HEIGHT) / ROW_HEIGHT) - 1);
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const moves: Record<string, number> = {
      ArrowDown: activeIndex + 1,
      ArrowUp: activeIndex - 1,
      PageDown: activeIndex + pageRows,
      PageUp: Math.max(0, activeIndex - pageRows),
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      moveTo(target);
      return;
    }
    // Enter picks in the list; it never sends the form from here.
    if (event.key === "Enter") {
      event.preventDefault();
      const row = rows[activeIndex];
      if (row !== undefined) toggle(row.value);
    }
  }

  const optionId = (index: number) => `${id}-option-${index}`;
  const activeRow = rows[activeIndex];
  const problem = offered !== undefined && "problem" in offered && !isListed ? offered.problem : undefined;
  const offer = offered !== undefined && "label" in offered && !isListed && !picked.includes(typed) ? typed : undefined;

  return (
    <fieldset className="action-form__group catalogue-picker">
      <legend>{legend}</legend>
      <PickedList noun={noun} legend={legend} picked={picked} onRemove={toggle} headingId={ids.picked} />
      {unlisted ?? (
        <>
          <label className="field__label" htmlFor={ids.input}>
            Find {legend.toLowerCase()}
          </label>
          <input
            id={ids.input}
            className="input input--mono"
            type="text"
            role="combobox"
            aria-expanded="true"
            aria-controls={ids.list}
            aria-autocomplete="list"
            aria-activedescendant={activeRow === undefined ? undefined : optionId(activeIndex)}
            aria-describedby={ids.status}
            autoComplete="off"
            spellCheck={false}
            value={search.text}
            onChange={(event) => {
              search.setText(event.target.value);
              setActive(-1);
              virtualizer.scrollToOffset(0);
            }}
            onKeyDown={onKeyDown}
          />
          <div
            ref={scrollRef}
            id={ids.list}
            className={
              rows.length === 0 ? "catalogue-picker__list catalogue-picker__list--empty" : "catalogue-picker__list"
            }
            role="listbox"
            aria-multiselectable="true"
            aria-label={`${legend} found`}
            aria-busy={search.loading}
          >
            <div className="catalogue-picker__rows" style={{ height: virtualizer.getTotalSize() }}>
              {virtualItems.map((item) => {
                const row = rows[item.index];
                if (row === undefined) return null;
                const isPicked = picked.includes(row.value);
                const detail = [row.name, row.description]
                  .filter((part) => part !== undefined && part !== "")
                  .join(" · ");
                return (
                  // The keyboard works in the search box (aria-activedescendant), as a combobox's list does.
                  // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                  <div
                    key={item.key}
                    id={optionId(item.index)}
                    role="option"
                    tabIndex={-1}
                    aria-selected={isPicked}
                    className={`catalogue-picker__option${item.index === activeIndex ? " catalogue-picker__option--active" : ""}`}
                    style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                    // The focus stays in the search box: a click picks without taking it.
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => {
                      setActive(item.index);
                      toggle(row.value);
                    }}
                  >
                    <span className="catalogue-picker__check" aria-hidden="true">
                      {isPicked ? "✓" : ""}
                    </span>
                    <span className="catalogue-picker__text">
                      <code className="catalogue-picker__value">
                        <SafeName>{row.value}</SafeName>
                      </code>
                      {detail !== "" && (
                        <span className="catalogue-picker__detail">
                          <SafeName>{detail}</SafeName>
                        </span>
                      )}
                    </span>
                  </div>
                );
              })}
            </div>
          </div>
          <p id={ids.status} className="field__hint catalogue-picker__status" aria-live="polite">
            <SearchStatus search={search} noun={noun} legend={legend} count={rows.length} problem={problem} />
          </p>
          {offer !== undefined && (
            <button
              type="button"
              className="button button--small catalogue-picker__new"
              aria-label={`Pick “${revealBidiControls(offer)}”, a new ${noun} (the change creates it)`}
              onClick={() => onPickedChange([...picked, offer])}
            >
              {/* One line of text in the button's flex box, not a flex item per word. */}
              <span>
                Pick “<SafeName>{offer}</SafeName>”, a new {noun} (the change creates it)
              </span>
            </button>
          )}
        </>
      )}
      {children}
    </fieldset>
  );
}

/** What is picked, each with a button that takes it out. */
function PickedList({
  noun,
  legend,
  picked,
  onRemove,
  headingId,
}: {
  noun: string;
  legend: string;
  picked: readonly string[];
  onRemove: (value: string) => void;
  headingId: string;
}) {
  if (picked.length === 0) {
    return <p className="field__hint">No {legend.toLowerCase()} picked.</p>;
  }
  return (
    <div className="catalogue-picker__picked">
      <p id={headingId} className="field__hint">
        Picked ({picked.length}):
      </p>
      <ul aria-label={`${legend} picked`}>
        {picked.map((value) => (
          <li key={value}>
            <code>
              <SafeName>{value}</SafeName>
            </code>
            <button
              type="button"
              className="button button--ghost button--small"
              aria-label={`Remove ${noun} ${revealBidiControls(value)}`}
              onClick={() => onRemove(value)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SearchStatus({
  search,
  noun,
  legend,
  count,
  problem,
}: {
  search: CatalogueSearch;
  noun: string;
  legend: string;
  count: number;
  problem: string | undefined;
}) {
  const plural = legend.toLowerCase();
  if (search.error !== null && search.entries === undefined) {
    return (
      <>
        The {plural} could not be listed.{" "}
        <button type="button" className="button button--small" onClick={search.retry}>
          Try again
        </button>
      </>
    );
  }
  if (search.entries === undefined || search.stale || (search.loading && count === 0)) {
    return (
      <>
        <Spinner /> {search.text.trim() === "" ? "Loading…" : `Searching for “${search.text.trim()}”…`}
      </>
    );
  }
  const asked = search.asked === "" ? "" : ` matching “${search.asked}”`;
  const said =
    count === 0
      ? `No ${noun}${asked}.`
      : search.hasMore
        ? `${count} ${plural}${asked} loaded; more load as you scroll. Up and Down move, Enter picks.`
        : `${count === 1 ? `1 ${noun}` : `${count} ${plural}`}${asked}. Up and Down move, Enter picks.`;
  return (
    <>
      {search.loading && <Spinner />} {said}
      {problem !== undefined && <span className="field__error"> {problem}</span>}
    </>
  );
}
