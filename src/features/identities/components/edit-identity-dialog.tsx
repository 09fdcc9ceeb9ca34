import { useStore } from "@tanstack/react-form";
import { useState, type ReactNode } from "react";
import * as v from "valibot";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { RatelimitFields } from "@/components/form/ratelimit-fields";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import type { Connection } from "@/lib/api/transport";
import type { KeyIdentity } from "@/lib/contract";
import { useUpdateIdentity } from "../api/identity-mutations";
import { probeUpdate, useProbe } from "../api/probes";
import { editDraft, EditIdentitySchema, identityChanges } from "../identity-form";
import { PermissionGate } from "./permission-gate";

export interface EditIdentityDialogProps {
  connection: Connection;
  identity: KeyIdentity;
  renderError: (error: unknown, onRetry: () => void) => ReactNode;
  onClose: () => void;
}

/**
 * Edit an identity: its shared rate limits (row by row) and its meta, sent with updateIdentity, only what changed
 * (a limit kept by name keeps its counter; one removed stops counting at once). Its keys' next verifications follow.
 */
export function EditIdentityDialog({ connection, identity, renderError, onClose }: EditIdentityDialogProps) {
  const mutation = useUpdateIdentity(connection, identity.id);
  const probe = useProbe(connection, "update_identity", true, () => probeUpdate(connection, identity.id));
  const [opened] = useState(() => editDraft(identity));
  const [problem, setProblem] = useState<string | null>(null);
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  const form = useAppForm({
    defaultValues: opened,
    validators: { onChange: EditIdentitySchema },
    onSubmit: ({ value }) => {
      const read = v.safeParse(EditIdentitySchema, value);
      if (!read.success) return;
      const changes = identityChanges(opened, read.output, value);
      if (changes === undefined) return setProblem("Nothing changed: nothing was sent.");
      setProblem(null);
      mutation.mutate(changes, { onSuccess: onClose });
    },
    onSubmitInvalid: focusFirstProblem,
  });
  const sent = useStore(form.store, (state) => state.submissionAttempts > 0);

  return (
    <ActionDialog title="Edit identity" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <PermissionGate connection={connection} action="update_identity" what="Changing an identity" probe={probe}>
        <form
          ref={formRef}
          className="action-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void form.handleSubmit();
          }}
        >
          <RatelimitFields form={form} fields={{ ratelimits: "ratelimits" }} />
          <p className="field__hint">
            Shared by all its keys: a limit kept by its name keeps its counter; one removed no longer refuses anything.
          </p>
          <form.AppField name="meta">
            {(field) => <field.TextAreaField label="Meta (JSON object)" rows={5} mono live />}
          </form.AppField>
          <FormEnd
            problem={sent ? problem : null}
            error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
            pending={mutation.isPending}
            label="Save"
            pendingLabel="Saving…"
          />
        </form>
      </PermissionGate>
    </ActionDialog>
  );
}
