import { useState } from "react";
import * as v from "valibot";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import { UnknownPermissionNote } from "@/components/access-notes";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import { KEY_FIELD_BOUNDS } from "@/lib/contract";
import type { Connection } from "@/lib/api/transport";
import { useCreateRole } from "../api/catalogue-mutations";
import { neededFor } from "../catalogue-access";
import { DESCRIPTION_MAX, DescriptionSchema } from "./catalogue-fields";
import type { RenderError } from "./render-error";

const ROLE_NAME_MAX = KEY_FIELD_BOUNDS.roleMaxLength;

/** The service's bounds: a name of 1 to 128 characters, unique in the workspace. */
const NewRoleSchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "A name is needed, like support.readonly"),
    v.maxLength(ROLE_NAME_MAX, `A role's name is at most ${ROLE_NAME_MAX} characters`),
  ),
  description: DescriptionSchema,
});

export interface CreateRoleDialogProps {
  connection: Connection;
  /** No request could tell whether the root key may create roles: said before the form. */
  permissionUnknown: boolean;
  renderError: RenderError;
  onClose: () => void;
  /** The role was made: its id (its page sets its permissions). */
  onCreated: (roleId: string) => void;
}

/** Create a role: its name (what keys are given) and a description; its permissions are set on its page. */
export function CreateRoleDialog({
  connection,
  permissionUnknown,
  renderError,
  onClose,
  onCreated,
}: CreateRoleDialogProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useCreateRole(connection);
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  const form = useAppForm({
    defaultValues: { name: "", description: "" },
    validators: { onChange: NewRoleSchema },
    onSubmit: ({ value }) => {
      const read = v.safeParse(NewRoleSchema, value);
      if (!read.success) return;
      setProblem(null);
      mutation.mutate(read.output, { onSuccess: ({ roleId }) => onCreated(roleId) });
    },
    onSubmitInvalid: focusFirstProblem,
  });

  return (
    <ActionDialog title="Create role" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <form
        ref={formRef}
        className="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
        noValidate
      >
        {permissionUnknown && <UnknownPermissionNote what="Creating a role" permissions={neededFor("create_role")} />}
        <form.AppField name="name">
          {(field) => (
            <field.TextField
              label="Name"
              hint="What keys are given (keys.addRoles, a key’s Permissions and roles): unique in the workspace."
              maxLength={ROLE_NAME_MAX}
              spellCheck={false}
            />
          )}
        </form.AppField>
        <form.AppField name="description">
          {(field) => (
            <field.TextAreaField label={`Description (optional, up to ${DESCRIPTION_MAX} characters)`} rows={3} />
          )}
        </form.AppField>
        <p className="field__hint">Its permissions are set on its page once it is created.</p>
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
          pending={mutation.isPending}
          label="Create role"
          pendingLabel="Creating…"
        />
      </form>
    </ActionDialog>
  );
}
