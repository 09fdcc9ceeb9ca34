import { elementScroll, observeElementRect, useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { useEffect, useEffectEvent, useLayoutEffect, useRef, type RefObject } from "react";
import type { Key } from "@/lib/contract";
import { OVERSCAN, windowRect, type DrawnRow } from "./key-rows";

/** Start loading the next page this many rows before the end. */
const LOAD_AHEAD_ROWS = 20;

type ScrollerVirtualizer = Virtualizer<HTMLDivElement, Element>;

/**
 * The virtualizer's own observer of the scroller's size, without its first read: that read (clientHeight) in
 * React's commit forces the page's first layout before the rows are even in the DOM. A ResizeObserver reports
 * the same size right after the browser's own layout, before the first paint; until then, windowRect.
 */
function observeScrollerRect(instance: ScrollerVirtualizer, onRect: (rect: { width: number; height: number }) => void) {
  const element = instance.scrollElement;
  if (element === null || typeof ResizeObserver === "undefined") return observeElementRect(instance, onRect);
  const observer = new ResizeObserver(() => onRect({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element, { box: "content-box" });
  return () => observer.disconnect();
}

const scrolledOnce = new WeakSet<ScrollerVirtualizer>();

/**
 * The virtualizer's own scroll, except its first: when it mounts it scrolls the scroller to the top, where it
 * already is, and that scrollTo would force a layout in React's commit.
 */
function scrollScroller(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: ScrollerVirtualizer,
): void {
  const first = !scrolledOnce.has(instance);
  scrolledOnce.add(instance);
  if (first && offset + (options.adjustments ?? 0) === 0) return;
  elementScroll(offset, options, instance);
}

/** The table's scroller, as the virtualizer reads it, and what it calls as the person scrolls. */
export interface ScrollerProps {
  scrollRef: RefObject<HTMLDivElement | null>;
  /** The sticky header's height above the rows, inside the same scroller. */
  headerHeight: number;
  /** Called while the user scrolls within reach of the last row. */
  onNearEnd: (() => void) | undefined;
  /** The keys in view once scrolling settles, after they are painted: their usage is asked for then. */
  onKeysInView: ((keyIds: readonly string[]) => void) | undefined;
}

interface VirtualRowPositionsProps extends ScrollerProps {
  /** The keys as shown (filtered and sorted), one row each. */
  keys: readonly Key[];
  rowHeight: number;
  /** Told the rows to draw (those in view and a few each way) before each paint, whenever they change. */
  onDrawn: (drawn: readonly DrawnRow[]) => void;
}

/**
 * Which of the table's rows are drawn, and where: only the rows in view (and a few each way), so scrolling 100,000
 * keys renders only the rows it brings in. Draws nothing itself: the table's one body draws what it is told, so
 * this code's arrival after the first rows (keys-table.tsx) moves rows and adds some, never draws them again.
 */
export function VirtualRowPositions({
  keys,
  rowHeight,
  scrollRef,
  headerHeight,
  onNearEnd,
  onKeysInView,
  onDrawn,
}: VirtualRowPositionsProps) {
  // The virtualizer re-renders this component itself on scroll; nothing here is memoized by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: keys.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => keys[index]?.keyId ?? index,
    overscan: OVERSCAN,
    initialRect: windowRect(),
    // The first rows were drawn before this code came: the person may have scrolled them already.
    initialOffset: () => scrollRef.current?.scrollTop ?? 0,
    observeElementRect: observeScrollerRect,
    scrollToFn: scrollScroller,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
    onChange: (instance) => reachNearEnd(instance),
  });
  // Within reach of the end as the person scrolls (or as the scroller is measured), the next page loads. Not on a
  // filter's change: a filter that leaves few rows would otherwise load every page of the list, one after another
  // (the export and the counts offer loading the rest instead).
  function reachNearEnd(instance: ScrollerVirtualizer) {
    const last = instance.getVirtualItems().at(-1);
    if (onNearEnd && last && last.index >= instance.options.count - 1 - LOAD_AHEAD_ROWS) onNearEnd();
  }
  // Once mounted: a first page that does not fill the scroller loads the next one, and so does a scroller the person
  // scrolled to its end before this code came (initialOffset above).
  const onMounted = useEffectEvent(() => reachNearEnd(virtualizer));
  useEffect(() => onMounted(), []);
  const scrolling = virtualizer.isScrolling;

  // After the rows are painted and scrolling has settled: the ids in view, for one usage query.
  // Counted from the window, not the scroller: the set stays the same when the scroller is measured after the
  // first commit, so one query is asked, not two.
  const firstInView = virtualizer.range?.startIndex ?? 0;
  const keysInView = keys.slice(
    Math.max(0, firstInView - OVERSCAN),
    firstInView + Math.ceil(windowRect().height / rowHeight) + OVERSCAN,
  );
  const idsInView = scrolling ? null : keysInView.map((key) => key.keyId).join(" ");
  useEffect(() => {
    if (idsInView !== null && onKeysInView) onKeysInView(idsInView === "" ? [] : idsInView.split(" "));
  }, [idsInView, onKeysInView]);

  // Told on a change only: telling renders the body, which renders this again (with new items, equal ones).
  const items = virtualizer.getVirtualItems();
  const told = useRef<readonly DrawnRow[]>([]);
  useLayoutEffect(() => {
    const drawn = items.map((item) => ({ index: item.index, top: item.start - headerHeight }));
    if (sameRows(drawn, told.current)) return;
    told.current = drawn;
    onDrawn(drawn);
  });
  return null;
}

function sameRows(a: readonly DrawnRow[], b: readonly DrawnRow[]): boolean {
  return a.length === b.length && a.every((row, at) => row.index === b[at]?.index && row.top === b[at].top);
}
