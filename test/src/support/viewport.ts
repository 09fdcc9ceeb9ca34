import { vi } from "vitest";
import { COMPACT_QUERY, KEYS_PAGE_PADDING } from "@/features/keys/columns/keys-layout";

/** The viewport of a phone for useMediaQuery: the keys table's COMPACT_QUERY matches, every other query does not. */
export function onAPhone(): void {
  vi.spyOn(window, "matchMedia").mockImplementation((query): MediaQueryList => ({
    matches: query === COMPACT_QUERY,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

/**
 * happy-dom lays nothing out: the keys list is `width` pixels wide (the window it estimates that from before
 * layout, and the element it measures after), and the table's scroller has a viewport of `height` to fill.
 */
export function layKeysListOut(width: number, height = 600): void {
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(height);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(width);
  // Read when the list mounts, so that onAPhone() may come before or after. (Past the page's maximum width the
  // estimate stops there, as the page does.)
  vi.spyOn(window, "innerWidth", "get").mockImplementation(
    () => width + 2 * KEYS_PAGE_PADDING[window.matchMedia(COMPACT_QUERY).matches ? "compact" : "wide"],
  );
}
