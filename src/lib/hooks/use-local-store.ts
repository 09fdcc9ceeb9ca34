import { useSyncExternalStore } from "react";
import type { LocalStore } from "../local-store";

/** A localStorage value (../local-store.ts), re-rendering when this tab or another changes it. */
export function useLocalStore<T>(store: LocalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.read, () => store.empty);
}
