import { CreateKeyDialog, type CreateKeyDialogProps } from "../features/key-actions/components/create-key-dialog";
import { HoldPageProvider } from "./hold-page-provider";
import { useKeyCache } from "./use-key-cache";
import { useRenderChangeError } from "./use-render-change-error";

/**
 * The key-actions dialog of "Create key", composed with the caches it updates and the troubleshoot panel for
 * its failures: loaded when it is first opened (create-key-button), never on the way to the keys page's first row.
 */
export function CreateKeyDialogSlot({
  connection,
  onClose,
  suggestedApis,
}: Omit<CreateKeyDialogProps, "cache" | "renderError">) {
  const cache = useKeyCache(connection);
  const renderError = useRenderChangeError(connection);
  return (
    <HoldPageProvider>
      <CreateKeyDialog
        connection={connection}
        cache={cache}
        onClose={onClose}
        suggestedApis={suggestedApis}
        renderError={renderError}
      />
    </HoldPageProvider>
  );
}
