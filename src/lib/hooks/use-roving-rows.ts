import type { Virtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";

export interface RovingRowsOptions {
  /** Each row's key, in order; a drawn row carries it as `data-item-key`, and its control in the tab order `data-roving`. */
  keys: readonly string[];
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
  rowHeight: number;
  /** The scroller's height before it is measured. */
  initialHeight?: number;
  /** Where the rows begin inside the scroller (a header above them). */
  rowsTop?: number;
  /** The next page is asked for this many rows before the end. */
  loadAhead: number;
  onNearEnd: () => void;
}

export interface RovingRows {
  /** The row whose control is in the tab order: the one moved to, or else the first in view. */
  tabbableIndex: number;
  /** The arrow keys, Home, End and the page keys move between the rows. */
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** A row's control was focused (by Tab or a click): it is the one in the tab order from now on. */
  setActiveKey: (key: string) => void;
  /** Moves the tab stop to a row, scrolls to it and focuses it once drawn. */
  moveTo: (index: number) => void;
}

/**
 * One tab stop for a virtualized list (a roving tab index, WAI-ARIA's pattern for a list of links): the keys move it,
 * the row moved to is scrolled into view and focused once drawn, and the next page is asked for as the end comes near,
 * by scrolling or by moving. Written here because the virtualizer draws rows but leaves the keyboard to its user.
 */
export function useRovingRows({
  keys,
  virtualizer,
  scrollRef,
  rowHeight,
  initialHeight = 400,
  rowsTop = 0,
  loadAhead,
  onNearEnd,
}: RovingRowsOptions): RovingRows {
  // By key, so that rows arriving above or below keep it; the first row until the person moves.
  const [activeKey, setActiveKey] = useState<string | undefined>(undefined);
  const activeIndex = Math.max(0, activeKey === undefined ? 0 : keys.indexOf(activeKey));
  const focusKey = useRef<string | null>(null);
  useLayoutEffect(() => {
    const key = focusKey.current;
    if (key === null) return;
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(key)}"] [data-roving]`);
    if (element) {
      element.focus({ preventScroll: true });
      focusKey.current = null;
    }
  });

  function moveTo(index: number) {
    const clamped = Math.min(keys.length - 1, Math.max(0, index));
    const key = keys[clamped];
    if (key === undefined) return;
    setActiveKey(key);
    focusKey.current = key;
    virtualizer.scrollToIndex(clamped, { align: "auto" });
    // Moved within reach of the end (End, the page keys): the next page is asked for now, not once drawn.
    if (clamped >= keys.length - 1 - loadAhead) onNearEnd();
  }
  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? initialHeight) / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: activeIndex + 1,
      ArrowUp: activeIndex - 1,
      PageDown: activeIndex + pageRows,
      PageUp: activeIndex - pageRows,
      Home: 0,
      End: keys.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    moveTo(target);
  }

  const drawn = virtualizer.getVirtualItems();
  // The row in the tab order is drawn: the one moved to, or else the first in view (scrolled away from it by mouse).
  const tabbableIndex = drawn.some((item) => item.index === activeIndex)
    ? activeIndex
    : (drawn.find((item) => item.start - rowsTop >= (virtualizer.scrollOffset ?? 0))?.index ?? drawn[0]?.index ?? 0);
  const last = drawn.at(-1);
  useEffect(() => {
    if (last !== undefined && last.index >= keys.length - 1 - loadAhead) onNearEnd();
  }, [last, keys.length, loadAhead, onNearEnd]);

  return { tabbableIndex, onKeyDown, setActiveKey, moveTo };
}
