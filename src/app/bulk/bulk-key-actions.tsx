import type { Connection } from "../../lib/api/transport";
import { toKeyscopeError } from "../../lib/api-errors";
import type { Key } from "../../lib/contract";
import { BulkActions } from "../../features/key-actions/components/bulk-actions";
import { describeError } from "../../features/troubleshoot/error-catalog";
import { useKeyCache } from "../use-key-cache";

export interface BulkKeyActionsProps {
  connection: Connection;
  keys: readonly Key[];
}

/** The bulk actions, composed: each failure named by the troubleshoot catalog (with the API's own words), each change sent to the caches. */
export function BulkKeyActions({ connection, keys }: BulkKeyActionsProps) {
  const cache = useKeyCache(connection);
  return (
    <BulkActions
      connection={connection}
      keys={keys}
      cache={cache}
      describeFailure={(error) => {
        const diagnosis = describeError(toKeyscopeError(error, [connection.apiKey]));
        return diagnosis.apiSays === null
          ? diagnosis.heading
          : `${diagnosis.heading} (${diagnosis.status ?? ""}: ${diagnosis.apiSays.detail})`;
      }}
    />
  );
}
