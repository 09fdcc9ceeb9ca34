import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import { SafeName } from "@/components/safe-name";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import { isPattern, limitWords } from "../override-words";

/** Rows drawn beyond those in view, each way. */
const OVERSCAN = 8;
/** A row's height before it is measured (a phone's card is taller, and measured). */
const ESTIMATED_ROW_HEIGHT = 49;

export interface OverrideTableProps {
  overrides: readonly RatelimitOverride[];
  /** Without them, the rows have no Change and Delete (the root key may not). */
  onChange?: ((override: RatelimitOverride) => void) | undefined;
  onDelete?: ((override: RatelimitOverride) => void) | undefined;
  /** The override whose delete is being checked, if one is: its button says so. */
  checking?: string | undefined;
}

/**
 * A namespace's overrides, virtualized (only the rows in view, and a few each way, are in the page: a namespace may
 * have thousands): identifier (a pattern said as one), limit per window or Blocked, id, Change and Delete. A real
 * table, so that its columns are read as such; its rows are measured, since an identifier may wrap.
 */
export function OverrideTable({ overrides, onChange, onDelete, checking }: OverrideTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer re-renders this component itself on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: overrides.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    getItemKey: (index) => overrides[index]?.overrideId ?? index,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const actions = onChange !== undefined || onDelete !== undefined;

  return (
    // A scroller of its own, reachable by Tab so that the keyboard scrolls it too.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable (WCAG 2.1.1)
    <div className="override-table__scroller" ref={scrollRef} tabIndex={0} role="region" aria-label="Overrides list">
      <table className="override-table" aria-rowcount={overrides.length + 1}>
        <caption className="visually-hidden">The namespace’s overrides, by id</caption>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Identifier</th>
            <th scope="col">Limit</th>
            <th scope="col">Override id</th>
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr aria-hidden="true" className="override-table__spacer">
              <td style={{ height: before }} colSpan={actions ? 4 : 3} />
            </tr>
          )}
          {items.map((item) => {
            const override = overrides[item.index];
            if (override === undefined) return null;
            return (
              <tr
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                className="override-table__row"
              >
                <td className="override-table__identifier" data-label="Identifier">
                  <code>
                    <SafeName>{override.identifier}</SafeName>
                  </code>
                  {isPattern(override.identifier) && <span className="override-table__pattern">pattern</span>}
                </td>
                <td
                  className={
                    override.limit === 0
                      ? "override-table__limit override-table__limit--blocked"
                      : "override-table__limit"
                  }
                  data-label="Limit"
                >
                  {limitWords(override.limit, override.duration)}
                </td>
                <td className="override-table__id" data-label="Id">
                  <code>{override.overrideId}</code>
                </td>
                {actions && (
                  <td className="override-table__actions">
                    {onChange !== undefined && (
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => onChange(override)}
                        aria-label={`Change the override for ${override.identifier}`}
                      >
                        Change
                      </button>
                    )}
                    {onDelete !== undefined && (
                      <button
                        type="button"
                        className="button button--small button--danger"
                        onClick={() => onDelete(override)}
                        aria-label={`Delete the override for ${override.identifier}`}
                        aria-disabled={checking !== undefined}
                      >
                        {checking === override.overrideId ? "Checking…" : "Delete"}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
          {after > 0 && (
            <tr aria-hidden="true" className="override-table__spacer">
              <td style={{ height: after }} colSpan={actions ? 4 : 3} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
