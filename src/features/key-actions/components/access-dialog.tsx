import { useState, type FormEvent } from "react";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { ANSWER_ON_ITS_WAY, useChangeAccess } from "../api/use-key-mutations";
import { useWorkspaceRoles } from "../api/use-workspace-choices";
import { effectivePermissions, keyAccess, namesChange } from "../key-access";
import type { KeyCache } from "../key-cache";
import { apiOf, useRefusal } from "../refusals";
import { AccessFields, accessChanges, UNTOUCHED_ACCESS, type AccessDraft } from "./access-fields";
import { ActionDialog } from "./action-dialog";
import { FormEnd } from "./form-parts";
import { RefusalNote, UnknownPermissionNote } from "./refusal-note";
import type { RenderError } from "./render-error";

export interface AccessDialogProps {
  connection: Connection;
  apiKey: Key;
  cache: KeyCache;
  renderError: RenderError;
  onClose: () => void;
  /** Opened from the verdict of a key refused as INSUFFICIENT_PERMISSIONS. */
  refused?: boolean;
  /** No request could tell whether the root key may add permissions to this key: said before the form. */
  addPermissionUnknown?: boolean;
}

/**
 * The key's own permissions and its roles, changed with the operations made for them: what was added is added, what
 * was removed is removed, both at once replace the key's own (set). What its roles give is listed apart.
 */
export function AccessDialog({
  connection,
  apiKey,
  cache,
  renderError,
  onClose,
  refused = false,
  addPermissionUnknown = false,
}: AccessDialogProps) {
  const [draft, setDraft] = useState<AccessDraft>(UNTOUCHED_ACCESS);
  const [problem, setProblem] = useState<string | null>(null);
  const roles = useWorkspaceRoles(connection);
  const target = { keyId: apiKey.keyId };
  const refusals = [
    { refusal: useRefusal(connection, "add_permission_to_key", target), what: "Adding a permission" },
    { refusal: useRefusal(connection, "remove_permission_from_key", target), what: "Removing a permission" },
    { refusal: useRefusal(connection, "add_role_to_key", target), what: "Adding a role" },
  ];
  const mutation = useChangeAccess(connection, cache);
  const access = keyAccess(apiKey, roles.data);
  const wanted = accessChanges(draft, apiKey, access);
  const permissions = wanted.permissions === undefined ? undefined : namesChange(access.direct, wanted.permissions);
  const roleChange = wanted.roles === undefined ? undefined : namesChange(apiKey.roles ?? [], wanted.roles);

  function send() {
    if (permissions === undefined && roleChange === undefined) {
      setProblem("Nothing changed.");
      return;
    }
    setProblem(null);
    const shown = effectivePermissions(
      wanted.permissions ?? access.direct,
      wanted.roles ?? apiKey.roles ?? [],
      roles.data,
    );
    mutation.mutate(
      {
        keyId: apiKey.keyId,
        ...(permissions !== undefined && { permissions }),
        ...(roleChange !== undefined && { roles: roleChange }),
        optimistic: {
          ...(wanted.roles !== undefined && { roles: wanted.roles }),
          ...(shown !== undefined && { permissions: shown }),
        },
      },
      { onSuccess: onClose },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send();
  }

  return (
    <ActionDialog
      title="Permissions and roles"
      onClose={onClose}
      busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}
    >
      <form className="action-form" onSubmit={submit} noValidate>
        {refused && (
          <p className="access-dialog__refused">
            Its verifications were refused as <code>INSUFFICIENT_PERMISSIONS</code>. Which permission they asked for is
            not recorded: the service keeps a verification’s outcome, time, region and tags, not the permissions it
            asked for. Check the one its callers need, or type it.
          </p>
        )}
        {refusals.map(({ refusal, what }) => refusal && <RefusalNote key={what} refusal={refusal} action={what} />)}
        {addPermissionUnknown && (
          <UnknownPermissionNote
            action="add_permission_to_key"
            apiId={apiOf(connection, target)}
            what="Adding a permission"
          />
        )}
        <AccessFields connection={connection} apiKey={apiKey} value={draft} onChange={setDraft} />
        <p className="field__hint" aria-live="polite">
          {[describe("permissions", permissions), describe("roles", roleChange)]
            .filter((said) => said !== "")
            .join(" ") || "No change yet."}
        </p>
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, send)}
          pending={mutation.isPending}
          label="Save permissions and roles"
          pendingLabel="Saving…"
        />
      </form>
    </ActionDialog>
  );
}

const VERB = { add: "Adds", remove: "Removes", set: "Sets the key’s own to" } as const;

/** "Adds documents.write." */
function describe(noun: string, change: ReturnType<typeof namesChange>): string {
  if (change === undefined) return "";
  return `${VERB[change.change]} ${change.names.length === 0 ? `no ${noun}` : change.names.join(", ")} (${noun}).`;
}
