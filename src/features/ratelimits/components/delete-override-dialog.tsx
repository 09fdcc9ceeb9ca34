import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import { FormEnd } from "@/components/form/form-end";
import { SafeName } from "@/components/safe-name";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import type { Connection } from "@/lib/api/transport";
import { useDeleteOverride } from "../api/overrides";
import { appliedOverride, limitWords } from "../override-words";
import { useRefusal } from "../refusals";
import { NamespacePermissionNeeded } from "./namespace-permission";
import type { RenderError } from "./namespaces-page";

export interface DeleteOverrideDialogProps {
  connection: Connection;
  namespace: string;
  namespaceId: string | undefined;
  override: RatelimitOverride;
  /** Every override loaded, to say what the identifiers it matched fall back to. */
  overrides: readonly RatelimitOverride[];
  renderError: RenderError;
  onClose: () => void;
  onDeleted: (identifier: string) => void;
}

/**
 * Delete an override, confirmed: what the identifiers it applied to get from the next limit on (another matching
 * override, or the limit their requests ask), said before anything is sent.
 */
export function DeleteOverrideDialog({
  connection,
  namespace,
  namespaceId,
  override,
  overrides,
  renderError,
  onClose,
  onDeleted,
}: DeleteOverrideDialogProps) {
  const mutation = useDeleteOverride(connection, namespace);
  // A refusal (the probe could not tell, or the permission was taken away since) is said here, by the permission.
  const refused = useRefusal(connection, "delete_override", namespace);
  const others = overrides.filter((other) => other.overrideId !== override.overrideId);
  // For an exact identifier, what applies to it without this override; for a pattern, the fallback of its own text.
  const fallback = appliedOverride(override.identifier, others);
  const send = () => mutation.mutate(override.identifier, { onSuccess: () => onDeleted(override.identifier) });

  return (
    <ActionDialog title="Delete override" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      {refused !== undefined ? (
        <NamespacePermissionNeeded action="delete_override" namespaceId={namespaceId} detail={refused.detail} />
      ) : (
        <form
          className="action-form"
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <p>
            Delete the override for{" "}
            <code>
              <SafeName>{override.identifier}</SafeName>
            </code>{" "}
            ({limitWords(override.limit, override.duration)})?
          </p>
          <p>
            From the next <code>ratelimit.limit</code> on, the identifiers it applied to get{" "}
            {fallback === undefined ? (
              "the limit their requests ask for"
            ) : (
              <>
                the next override that matches them, such as the one for{" "}
                <code>
                  <SafeName>{fallback.override.identifier}</SafeName>
                </code>{" "}
                ({limitWords(fallback.override.limit, fallback.override.duration)}), or else the limit their requests
                ask for
              </>
            )}
            . The service cannot restore it: setting it again makes a new one, with a new id.
          </p>
          <FormEnd
            error={mutation.isError && renderError(mutation.error, send)}
            pending={mutation.isPending}
            label="Delete override"
            pendingLabel="Deleting…"
            danger
          />
        </form>
      )}
    </ActionDialog>
  );
}
