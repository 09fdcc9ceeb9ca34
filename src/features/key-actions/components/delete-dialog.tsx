import { useStore } from "@tanstack/react-form";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { useDeleteKey } from "../api/use-key-mutations";
import type { KeyCache } from "../key-cache";
import { apiOf, useKnownAllowed, useRefusal } from "../refusals";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import "./key-actions.css";
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
  const confirmation = apiKey.name !== undefined && apiKey.name.trim() !== "" ? apiKey.name : apiKey.keyId;
  const mutation = useDeleteKey(connection, cache);
  const target = { keyId: apiKey.keyId };
  // No request finds out delete_key without deleting (the real handler deletes right after its check): unknown until
  // tried, then known either way (a refusal is said by the panel of the answer, once).
  const knownAllowed = useKnownAllowed(connection, "delete_key", target);
  const refused = useRefusal(connection, "delete_key", target) !== undefined;
  const form = useAppForm({
    defaultValues: { typed: "" },
    onSubmit: ({ value }) => {
      if (value.typed.trim() === confirmation.trim()) send();
    },
  });
  const matches = useStore(form.store, (state) => state.values.typed.trim() === confirmation.trim());

  function send() {
    mutation.mutate({ keyId: apiKey.keyId }, { onSuccess: onDeleted });
  }

  return (
    <ActionDialog title="Delete key" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <form
        className="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
      >
        {!knownAllowed && !refused && (
          <UnknownPermissionNote action="delete_key" apiId={apiOf(connection, target)} what="Deleting a key" />
        )}
        <p>
          Every request with this key is refused from now on (<code>NOT_FOUND</code>). This cannot be undone.
        </p>
        <form.AppField name="typed">
          {(field) => (
            <field.TextField
              label={
                <>
                  Type <code>{confirmation}</code> to confirm
                </>
              }
              spellCheck={false}
            />
          )}
        </form.AppField>
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
