import { useCallback, useMemo, useRef, useState } from "react";

/** The keys ticked in the table: click toggles one, shift-click the range from the last one clicked. */
export interface KeySelection {
  selected: ReadonlySet<string>;
  /** `ordered`: the ids as shown, for a range. */
  toggle: (keyId: string, range: boolean, ordered: readonly string[]) => void;
  /** Selects these too (select all shown), keeping the selected keys a filter hides. */
  add: (keyIds: readonly string[]) => void;
  /** Unselects these, keeping the others. */
  remove: (keyIds: readonly string[]) => void;
  clear: () => void;
}

export function useKeySelection(): KeySelection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const anchor = useRef<string | null>(null);
  const toggle = useCallback((keyId: string, range: boolean, ordered: readonly string[]) => {
    // Read now: the updater may run after the anchor below has moved to this key.
    const from = anchor.current === null ? -1 : ordered.indexOf(anchor.current);
    const to = ordered.indexOf(keyId);
    setSelected((previous) => {
      const next = new Set(previous);
      const on = !previous.has(keyId);
      if (range && from !== -1 && to !== -1) {
        for (const id of ordered.slice(Math.min(from, to), Math.max(from, to) + 1)) {
          if (on) next.add(id);
          else next.delete(id);
        }
      } else if (on) next.add(keyId);
      else next.delete(keyId);
      return next;
    });
    anchor.current = keyId;
  }, []);
  const add = useCallback(
    (keyIds: readonly string[]) => setSelected((previous) => new Set([...previous, ...keyIds])),
    [],
  );
  const remove = useCallback((keyIds: readonly string[]) => {
    const removed = new Set(keyIds);
    setSelected((previous) => new Set([...previous].filter((keyId) => !removed.has(keyId))));
  }, []);
  const clear = useCallback(() => {
    anchor.current = null;
    setSelected(new Set());
  }, []);
  return useMemo(() => ({ selected, toggle, add, remove, clear }), [selected, toggle, add, remove, clear]);
}
