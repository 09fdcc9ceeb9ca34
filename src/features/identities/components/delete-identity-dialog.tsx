import { useStore } from "@tanstack/react-form";
import type { ReactNode } from "react";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { SafeName } from "@/components/safe-name";
import type { Connection } from "@/lib/api/transport";
import type { KeyIdentity } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { useDeleteIdentity } from "../api/identity-mutations";
import { probeDelete, useProbe } from "../api/probes";
import { PermissionGate } from "./permission-gate";

export interface DeleteIdentityDialogProps {
  connection: Connection;
  identity: KeyIdentity;
  /** Its keys found, and whether every place searched answered (else: at least that many). */
  keysFound: { count: number; complete: boolean };
  renderError: (error: unknown, onRetry: () => void) => ReactNode;
  onClose: () => void;
  onDeleted: () => void;
}

/**
 * Delete an identity, confirmed by typing its external id. What happens to its keys is said first, as both services
 * do it: they stay and keep verifying, as keys of no identity (its shared limits and meta no longer apply to them).
 */
export function DeleteIdentityDialog({
  connection,
  identity,
  keysFound,
  renderError,
  onClose,
  onDeleted,
}: DeleteIdentityDialogProps) {
  const mutation = useDeleteIdentity(connection, identity.id);
  const probe = useProbe(connection, "delete_identity", true, () => probeDelete(connection));
  const confirmation = identity.externalId;
  const form = useAppForm({
    defaultValues: { typed: "" },
    onSubmit: ({ value }) => {
      if (value.typed.trim() === confirmation.trim()) mutation.mutate(undefined, { onSuccess: onDeleted });
    },
  });
  const matches = useStore(form.store, (state) => state.values.typed.trim() === confirmation.trim());
  const count = `${keysFound.complete ? "" : "at least "}${formatCount(keysFound.count)}`;

  return (
    <ActionDialog title="Delete identity" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <PermissionGate connection={connection} action="delete_identity" what="Deleting an identity" probe={probe}>
        <form
          className="action-form"
          onSubmit={(event) => {
            event.preventDefault();
            void form.handleSubmit();
          }}
        >
          <p>
            <strong>Its keys are not deleted.</strong>{" "}
            {keysFound.count === 0 && keysFound.complete
              ? "No key of it was found; any it has stay and keep"
              : keysFound.count === 1 && keysFound.complete
                ? "Its 1 key stays and keeps"
                : `Its ${count} keys stay and keep`}{" "}
            verifying, as keys of no identity: its shared rate limits no longer count their verifications, its meta is
            no longer returned with them, and <code>apis.listKeys</code> by the external id “
            <SafeName>{identity.externalId}</SafeName>” no longer finds them.
          </p>
          <p>
            The identity, its meta and its rate limits are deleted; this cannot be undone. Its external id can then be
            given to a new identity.
          </p>
          <form.AppField name="typed">
            {(field) => (
              <field.TextField
                label={
                  <>
                    Type{" "}
                    <code>
                      <SafeName>{confirmation}</SafeName>
                    </code>{" "}
                    to confirm
                  </>
                }
                mono
                spellCheck={false}
              />
            )}
          </form.AppField>
          <FormEnd
            error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
            pending={mutation.isPending}
            label="Delete identity"
            pendingLabel="Deleting…"
            disabled={!matches}
            danger
          />
        </form>
      </PermissionGate>
    </ActionDialog>
  );
}
