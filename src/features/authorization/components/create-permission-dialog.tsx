import { useState } from "react";
import * as v from "valibot";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import { UnknownPermissionNote } from "@/components/access-notes";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import { PermissionNameSchema } from "@/lib/api/key-fields";
import type { Connection } from "@/lib/api/transport";
import { useCreatePermission } from "../api/catalogue-mutations";
import { neededFor } from "../catalogue-access";
import { DESCRIPTION_MAX, DescriptionSchema } from "./catalogue-fields";
import type { RenderError } from "./render-error";

/** The service's bounds: a name of 1 to 512 characters, a slug of the permission pattern, unique in any case. */
const NewPermissionSchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "A name is needed, like “Read documents”"),
    v.maxLength(512, "A name is at most 512 characters"),
  ),
  slug: v.pipe(v.string(), v.trim(), v.minLength(1, "A slug is needed, like documents.read"), PermissionNameSchema),
  description: DescriptionSchema,
});

export interface CreatePermissionDialogProps {
  connection: Connection;
  /** No request could tell whether the root key may create permissions: said before the form. */
  permissionUnknown: boolean;
  renderError: RenderError;
  onClose: () => void;
  /** The permission was made: its id. */
  onCreated: (permissionId: string) => void;
}

/** Create a permission: its name, its slug (what keys hold and verifications ask for), a description. */
export function CreatePermissionDialog({
  connection,
  permissionUnknown,
  renderError,
  onClose,
  onCreated,
}: CreatePermissionDialogProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useCreatePermission(connection);
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  const form = useAppForm({
    defaultValues: { name: "", slug: "", description: "" },
    validators: { onChange: NewPermissionSchema },
    onSubmit: ({ value }) => {
      const read = v.safeParse(NewPermissionSchema, value);
      if (!read.success) return;
      setProblem(null);
      mutation.mutate(read.output, { onSuccess: ({ permissionId }) => onCreated(permissionId) });
    },
    onSubmitInvalid: focusFirstProblem,
  });

  return (
    <ActionDialog title="Create permission" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <form
        ref={formRef}
        className="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
        noValidate
      >
        {permissionUnknown && (
          <UnknownPermissionNote what="Creating a permission" permissions={neededFor("create_permission")} />
        )}
        <form.AppField name="name">
          {(field) => <field.TextField label="Name" hint="What it grants, for people: “Read documents”." />}
        </form.AppField>
        <form.AppField name="slug">
          {(field) => (
            <field.TextField
              label="Slug"
              hint="What keys hold and verifications ask for: letters, digits and _ : - . *, unique in the workspace in any case."
              mono
              spellCheck={false}
              maxLength={128}
            />
          )}
        </form.AppField>
        <form.AppField name="description">
          {(field) => (
            <field.TextAreaField label={`Description (optional, up to ${DESCRIPTION_MAX} characters)`} rows={3} />
          )}
        </form.AppField>
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
          pending={mutation.isPending}
          label="Create permission"
          pendingLabel="Creating…"
        />
      </form>
    </ActionDialog>
  );
}
