import { useCallback, useState } from "react";

/**
 * An element's content width in CSS pixels, kept current as it resizes (0 until it is laid out). A ref
 * callback rather than an effect, so the first measurement lands before the first paint.
 */
export function useElementWidth<T extends HTMLElement>(): [(element: T | null) => void, number] {
  const [width, setWidth] = useState(0);
  const ref = useCallback((element: T | null) => {
    if (element === null) return;
    // Whole pixels: sub-pixel jitter while resizing must not re-render the table.
    const measure = (value: number) => setWidth(Math.floor(value));
    measure(element.clientWidth);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const entry = entries.at(-1);
      if (entry) measure(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
