import { useDeferredValue, useMemo, useState } from "react";
import type { Key } from "@/lib/contract";
import { filterKeys } from "../utils/key-view";

/**
 * The text filter over the loaded keys. Typing stays instant with 100,000 keys loaded: `query` (and the
 * matches) follow the input a frame later.
 */
export function useKeyFilter(keys: readonly Key[]) {
  const [text, setText] = useState("");
  const deferred = useDeferredValue(text);
  const query = deferred.trim();
  const matches = useMemo(() => filterKeys(keys, deferred), [keys, deferred]);
  return {
    /** What the input holds. */
    text,
    setText,
    /** The filter the list shows, trimmed; "" when not filtering. */
    query,
    filtering: query !== "",
    /** The loaded keys that match `query`. */
    matches,
  };
}
