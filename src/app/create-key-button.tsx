import { Suspense, useState } from "react";
import type { Connection } from "../lib/api/transport";
import { retryableLazy } from "../lib/retryable-lazy";
import { LazyErrorPanel as ErrorPanel } from "../features/troubleshoot/components/lazy-error-panel";
import { TROUBLESHOOT_PATH } from "./paths";
import { useActiveEnvironment } from "./use-active-environment";
import { useForgetKey } from "./use-forget-key";
import { useKeyCache } from "./use-key-cache";

// The dialog's code loads when it is first opened: never on the way to the keys page's first row.
const CreateKeyDialog = retryableLazy(() => import("../features/key-actions/components/create-key-dialog"), (module) => module.CreateKeyDialog);

/** The Keys page's "Create key": the key-actions dialog, its failures in the troubleshoot panel. */
export function CreateKeyButton({ connection }: { connection: Connection }) {
  const [open, setOpen] = useState(false);
  const cache = useKeyCache(connection);
  const reenterKey = useForgetKey();
  // The saved environments of this base URL name APIs too: offered beside the connection's.
  const { environments } = useActiveEnvironment();
  const suggestedApis = environments.flatMap((environment) =>
    environment.baseUrl === connection.baseUrl && environment.apiId !== undefined ? [{ apiId: environment.apiId, from: `environment “${environment.name}”` }] : [],
  );
  return (
    <>
      <button type="button" className="button button--primary" onClick={() => setOpen(true)}>
        Create key
      </button>
      {open && (
        <Suspense fallback={<span role="status">Opening…</span>}>
          <CreateKeyDialog
            connection={connection}
            cache={cache}
            onClose={() => setOpen(false)}
            suggestedApis={suggestedApis}
            renderError={(error, onRetry) => (
              <ErrorPanel error={error} baseUrl={connection.baseUrl} onRetry={onRetry} onReenterKey={reenterKey} troubleshootHref={TROUBLESHOOT_PATH} />
            )}
          />
        </Suspense>
      )}
    </>
  );
}
