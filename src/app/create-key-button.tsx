import { useState } from "react";
import { LateCodeBoundary } from "../components/late-code-boundary";
import type { Connection } from "../lib/api/transport";
import { retryableLazy } from "../lib/retryable-lazy";
import { useActiveEnvironment } from "./use-active-environment";

// The dialog's code loads when it is first opened: never on the way to the keys page's first row.
const CreateKeyDialogSlot = retryableLazy(
  () => import("./create-key-dialog-slot"),
  (module) => module.CreateKeyDialogSlot,
);

/** The Keys page's "Create key": the key-actions dialog, its failures in the troubleshoot panel. */
export function CreateKeyButton({ connection }: { connection: Connection }) {
  const [open, setOpen] = useState(false);
  // The saved environments of this base URL name APIs too: offered beside the connection's.
  const { environments } = useActiveEnvironment();
  const suggestedApis = environments.flatMap((environment) =>
    environment.baseUrl === connection.baseUrl && environment.apiId !== undefined
      ? [{ apiId: environment.apiId, from: `environment “${environment.name}”` }]
      : [],
  );
  return (
    <>
      <button type="button" className="button button--primary" onClick={() => setOpen(true)}>
        Create key
      </button>
      {open && (
        // Code that cannot load says so here, not in place of the keys listed below.
        <LateCodeBoundary what="Create key" inline loading={<span role="status">Opening…</span>}>
          <CreateKeyDialogSlot connection={connection} onClose={() => setOpen(false)} suggestedApis={suggestedApis} />
        </LateCodeBoundary>
      )}
    </>
  );
}
