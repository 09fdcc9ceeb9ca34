import { vi } from "vitest";

/** The viewport of a phone for useMediaQuery: `(max-width: 640px)` matches, every other query does not. */
export function onAPhone(): void {
  vi.spyOn(window, "matchMedia").mockImplementation(
    (query): MediaQueryList => ({
      matches: query === "(max-width: 640px)",
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  );
}
