import { useCallback, useMemo, useRef, useState } from "react";

/** The keys ticked in the table: click toggles one, shift-click the range from the last one clicked. */
export interface KeySelection {
  selected: ReadonlySet<string>;
  /** `ordered`: the ids as shown, for a range. */
  toggle: (keyId: string, range: boolean, ordered: readonly string[]) => void;
  setAll: (keyIds: readonly string[]) => void;
  clear: () => void;
}

export function useKeySelection(): KeySelection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const anchor = useRef<string | null>(null);
  const toggle = useCallback((keyId: string, range: boolean, ordered: readonly string[]) => {
    setSelected((previous) => {
      const next = new Set(previous);
      const on = !previous.has(keyId);
      const from = anchor.current === null ? -1 : ordered.indexOf(anchor.current);
      const to = ordered.indexOf(keyId);
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
  const setAll = useCallback((keyIds: readonly string[]) => setSelected(new Set(keyIds)), []);
  const clear = useCallback(() => {
    anchor.current = null;
    setSelected(new Set());
  }, []);
  return useMemo(() => ({ selected, toggle, setAll, clear }), [selected, toggle, setAll, clear]);
}
