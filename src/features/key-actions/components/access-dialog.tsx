import { useStore } from "@tanstack/react-form";
import { useState } from "react";
import * as v from "valibot";
import { useAppForm } from "@/components/form/app-form";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { useChangeAccess } from "../api/use-key-mutations";
import { useWorkspaceRoles } from "../api/use-workspace-choices";
import { effectivePermissions, keyAccess, namesChange } from "../key-access";
import type { KeyCache } from "../key-cache";
import { apiOf, useRefusal } from "../refusals";
import { changedFields, describeChange, listed } from "../changed-under";
import { AccessDraftSchema, AccessFields, accessChanges, UNTOUCHED_ACCESS } from "./access-fields";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import "./key-actions.css";
import { FormEnd } from "@/components/form/form-end";
import { KeyChangedNote } from "./key-changed-note";
import { RefusalNote, UnknownPermissionNote } from "./refusal-note";
import type { RenderError } from "./render-error";

const AccessFormSchema = v.object({ access: AccessDraftSchema });

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
  const [problem, setProblem] = useState<string | null>(null);
  // The key as the form opened on it, or as it was when its new values were taken.
  const [opened, setOpened] = useState(apiKey);
  const [overwrite, setOverwrite] = useState(false);
  const roles = useWorkspaceRoles(connection);
  const target = { keyId: apiKey.keyId };
  const refusals = [
    { refusal: useRefusal(connection, "add_permission_to_key", target), what: "Adding a permission" },
    { refusal: useRefusal(connection, "remove_permission_from_key", target), what: "Removing a permission" },
    { refusal: useRefusal(connection, "add_role_to_key", target), what: "Adding a role" },
  ];
  const mutation = useChangeAccess(connection, cache);
  const access = keyAccess(apiKey, roles.data);
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  const form = useAppForm({
    defaultValues: { access: UNTOUCHED_ACCESS },
    validators: { onChange: AccessFormSchema },
    onSubmit: send,
    onSubmitInvalid: focusFirstProblem,
  });
  const draft = useStore(form.store, (state) => state.values.access);
  // Names typed that are not names yet are left out of what the form says it will do; Save says why.
  const read = v.safeParse(AccessDraftSchema, draft);
  const wanted = accessChanges(
    read.success ? read.output : { ...draft, typedPermissions: [], typedRoles: [] },
    apiKey,
    access,
  );
  const permissions = wanted.permissions === undefined ? undefined : namesChange(access.direct, wanted.permissions);
  const roleChange = wanted.roles === undefined ? undefined : namesChange(apiKey.roles ?? [], wanted.roles);
  // While this form's own change is on its way (shown at once) or made, the key differs for that reason alone.
  const changedUnder =
    mutation.isPending || mutation.isSuccess ? [] : changedFields(opened, apiKey, ["permissions", "roles"]);
  const touched = JSON.stringify(draft) !== JSON.stringify(UNTOUCHED_ACCESS);

  function send() {
    if (permissions === undefined && roleChange === undefined) {
      setProblem("Nothing changed.");
      return;
    }
    // Picks made on the lists as they were would take back what changed under the form: said before, sent when asked.
    if (changedUnder.length > 0 && touched && !overwrite) {
      setOverwrite(true);
      setProblem(
        `Changed both here and elsewhere since this form opened: ${listed(changedUnder.map((field) => describeChange(field, apiKey)))}. Save again to replace that with what this form has, or take the new values.`,
      );
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

  function takeNewValues() {
    form.setFieldValue("access", UNTOUCHED_ACCESS);
    setOpened(apiKey);
    setOverwrite(false);
    setProblem(null);
  }

  return (
    <ActionDialog
      title="Permissions and roles"
      onClose={onClose}
      busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}
    >
      <form
        ref={formRef}
        className="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
        noValidate
      >
        {changedUnder.length > 0 && <KeyChangedNote changed={changedUnder} now={apiKey} onTake={takeNewValues} />}
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
        <AccessFields form={form} fields="access" connection={connection} apiKey={apiKey} />
        <p className="field__hint" aria-live="polite">
          {[describe("permissions", permissions), describe("roles", roleChange)]
            .filter((said) => said !== "")
            .join(" ") || "No change yet."}
        </p>
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
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
