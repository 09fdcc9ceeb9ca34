import { Field, FormEnd } from "./form-parts";
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { changeKeyPermissions } from "../../../lib/api/key-permissions";
import type { Connection } from "../../../lib/api/transport";
import type { Key } from "../../../lib/contract";
import type { KeyCache } from "../key-cache";
import { apiOf, learnAllowed, learnRefusal } from "../refusals";
import { ActionDialog } from "./action-dialog";
import { UnknownPermissionNote } from "./refusal-note";
import { splitNames } from "./key-form-fields";
import type { RenderError } from "./render-error";

export interface PermissionDialogProps {
  connection: Connection;
  apiKey: Key;
  cache: KeyCache;
  renderError: RenderError;
  onClose: () => void;
  /** The permission the verification was refused for, when it was recorded. */
  initialPermission?: string;
  /** No request could tell whether the root key may add permissions to this key: said before the form. */
  permissionUnknown?: boolean;
}

/** Add permissions to the key (by slug; the service creates a new one when the root key may). */
export function PermissionDialog({ connection, apiKey, cache, renderError, onClose, initialPermission, permissionUnknown = false }: PermissionDialogProps) {
  const id = useId();
  const [typed, setTyped] = useState(initialPermission ?? "");
  const mutation = useMutation({
    gcTime: 0,
    mutationFn: (permissions: string[]) => changeKeyPermissions(connection, apiKey.keyId, "add", permissions),
    onError: (error) => learnRefusal(connection, "add_permission_to_key", error, { keyId: apiKey.keyId }),
    onSuccess: () => learnAllowed(connection, "add_permission_to_key", { keyId: apiKey.keyId }),
    onSettled: () => cache.refreshKey(apiKey.keyId),
  });
  const names = splitNames(typed);

  function send() {
    if (names.length > 0) mutation.mutate(names, { onSuccess: onClose });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send();
  }

  return (
    <ActionDialog title="Add permission" onClose={onClose}>
      <form className="action-form" onSubmit={submit}>
        {permissionUnknown && <UnknownPermissionNote action="add_permission_to_key" apiId={apiOf(connection, { keyId: apiKey.keyId })} what="Adding a permission" />}
        <p>
          The key has {apiKey.permissions === undefined || apiKey.permissions.length === 0 ? "no permissions" : <code>{apiKey.permissions.join(", ")}</code>}.
        </p>
        <Field inputId={`${id}-permissions`} label="Permissions to add (comma separated)">
          <input id={`${id}-permissions`} className="input input--mono" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
        </Field>
        <FormEnd error={mutation.isError && renderError(mutation.error, send)} pending={mutation.isPending} label="Add permission" pendingLabel="Adding…" disabled={names.length === 0} />
      </form>
    </ActionDialog>
  );
}
