import { FormEnd } from "./form-parts";
import { useId, useState, type FormEvent } from "react";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { ANSWER_ON_ITS_WAY, useDeleteKey } from "../api/use-key-mutations";
import type { KeyCache } from "../key-cache";
import { apiOf, useKnownAllowed } from "../refusals";
import { ActionDialog } from "./action-dialog";
import { UnknownPermissionNote } from "./refusal-note";
import type { RenderError } from "./render-error";

export interface DeleteDialogProps {
  connection: Connection;
  apiKey: Key;
  cache: KeyCache;
  renderError: RenderError;
  onClose: () => void;
  onDeleted: () => void;
}

/** Delete: confirmed by typing the key's name (its id when it has none); it stops verifying at once. */
export function DeleteDialog({ connection, apiKey, cache, renderError, onClose, onDeleted }: DeleteDialogProps) {
  const id = useId();
  const confirmation = apiKey.name !== undefined && apiKey.name.trim() !== "" ? apiKey.name : apiKey.keyId;
  const [typed, setTyped] = useState("");
  const mutation = useDeleteKey(connection, cache);
  const target = { keyId: apiKey.keyId };
  // No request finds out delete_key without deleting (the real handler deletes right after its check).
  const knownAllowed = useKnownAllowed(connection, "delete_key", target);
  const matches = typed.trim() === confirmation.trim();

  function send() {
    mutation.mutate({ keyId: apiKey.keyId }, { onSuccess: onDeleted });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (matches) send();
  }

  return (
    <ActionDialog title="Delete key" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <form className="action-form" onSubmit={submit}>
        {!knownAllowed && (
          <UnknownPermissionNote action="delete_key" apiId={apiOf(connection, target)} what="Deleting a key" />
        )}
        <p>
          Every request with this key is refused from now on (<code>NOT_FOUND</code>). This cannot be undone.
        </p>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-confirm`}>
            Type <code>{confirmation}</code> to confirm
          </label>
          <input
            id={`${id}-confirm`}
            className="input"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <FormEnd
          error={mutation.isError && renderError(mutation.error, send)}
          pending={mutation.isPending}
          label="Delete key"
          pendingLabel="Deleting…"
          disabled={!matches}
          danger
        />
      </form>
    </ActionDialog>
  );
}
