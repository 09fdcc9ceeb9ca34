import { Suspense } from "react";
import type { Connection } from "../lib/api/transport";
import type { Key } from "../lib/contract";
import { retryableLazy } from "../lib/retryable-lazy";
import { useKeyCache } from "./use-key-cache";

// Loaded when a first key is selected: never on the way to the keys page's first row.
const BulkActions = retryableLazy(() => import("../features/key-actions/components/bulk-actions"), (module) => module.BulkActions);

/** What can be done to the keys selected in the list: the key-actions feature, over the caches composed here. */
export function BulkActionsSlot({ connection, keys, clearSelection }: { connection: Connection; keys: readonly Key[]; clearSelection: () => void }) {
  const cache = useKeyCache(connection);
  return (
    <Suspense fallback={<span role="status">{keys.length} selected</span>}>
      <BulkActions connection={connection} keys={keys} cache={cache} clearSelection={clearSelection} />
    </Suspense>
  );
}
