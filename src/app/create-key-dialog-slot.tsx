import { CreateKeyDialog, type CreateKeyDialogProps } from "../features/key-actions/components/create-key-dialog";
import { LazyErrorPanel as ErrorPanel } from "../features/troubleshoot/components/lazy-error-panel";
import { HoldPageProvider } from "./hold-page-provider";
import { TROUBLESHOOT_PATH } from "./paths";
import { useForgetKey } from "./use-forget-key";
import { useKeyCache } from "./use-key-cache";

/**
 * The key-actions dialog of "Create key", composed with the caches it updates and the troubleshoot panel for
 * its failures: loaded when it is first opened (create-key-button), never on the way to the keys page's first row.
 */
export function CreateKeyDialogSlot({ connection, onClose, suggestedApis }: Omit<CreateKeyDialogProps, "cache" | "renderError">) {
  const cache = useKeyCache(connection);
  const reenterKey = useForgetKey();
  return (
    <HoldPageProvider>
      <CreateKeyDialog
        connection={connection}
        cache={cache}
        onClose={onClose}
        suggestedApis={suggestedApis}
        renderError={(error, onRetry) => (
          <ErrorPanel error={error} baseUrl={connection.baseUrl} onRetry={onRetry} onReenterKey={reenterKey} troubleshootHref={TROUBLESHOOT_PATH} />
        )}
      />
    </HoldPageProvider>
  );
}
