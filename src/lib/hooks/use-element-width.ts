import { useCallback, useState } from "react";
import { flushSync } from "react-dom";

/**
 * An element's content width in CSS pixels, kept current as it resizes. The first render uses `estimate` (from
 * the window, which needs no layout); the element's own width comes from a ResizeObserver, which reports it after
 * the browser's own layout and before that frame is painted. Reading it in the commit instead (clientWidth) would
 * force a layout of the whole page before the rows are even in, and again after the re-render it causes.
 */
export function useElementWidth<T extends HTMLElement>(estimate: () => number): [(element: T | null) => void, number] {
  const [width, setWidth] = useState(() => Math.max(0, Math.floor(estimate())));
  const ref = useCallback((element: T | null) => {
    if (element === null) return;
    if (typeof ResizeObserver === "undefined") {
      setWidth(Math.floor(element.clientWidth));
      return;
    }
    const observer = new ResizeObserver((entries) => {
      const entry = entries.at(-1);
      // Whole pixels: sub-pixel jitter while resizing must not re-render the table. Synchronous, so a width that
      // folds other columns than the estimate did is drawn in this same frame, never one frame late.
      if (entry) flushSync(() => setWidth(Math.floor(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
