import { vi } from "vitest";
import { COMPACT_QUERY } from "../../../src/features/keys/components/keys-table";

/** The viewport of a phone for useMediaQuery: the keys table's COMPACT_QUERY matches, every other query does not. */
export function onAPhone(): void {
  vi.spyOn(window, "matchMedia").mockImplementation(
    (query): MediaQueryList => ({
      matches: query === COMPACT_QUERY,
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
