import { useStore } from "@tanstack/react-form";
import { useState, type ReactNode } from "react";
import * as v from "valibot";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import { RatelimitFields } from "@/components/form/ratelimit-fields";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import type { Connection } from "@/lib/api/transport";
import { useCreateIdentity } from "../api/identity-mutations";
import { probeCreate, useProbe } from "../api/probes";
import { CreateIdentitySchema, EMPTY_IDENTITY } from "../identity-form";
import { PermissionGate } from "./permission-gate";

export interface CreateIdentityProps {
  connection: Connection;
  /** An identity the workspace has: the probe asks to create it again (refused after the check, nothing made). */
  existingExternalId: string | undefined;
  renderError: (error: unknown, onRetry: () => void) => ReactNode;
  onCreated: (identityId: string) => void;
}

/** "Create identity", and its dialog while open. */
export function CreateIdentityButton(props: CreateIdentityProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button--primary" onClick={() => setOpen(true)}>
        Create identity
      </button>
      {open && <CreateIdentityDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Create identity: its external id, meta (JSON, checked as typed) and shared rate limits; then its page. */
function CreateIdentityDialog({
  connection,
  existingExternalId,
  renderError,
  onCreated,
  onClose,
}: CreateIdentityProps & { onClose: () => void }) {
  const mutation = useCreateIdentity(connection);
  const probe = useProbe(connection, "create_identity", true, () => probeCreate(connection, existingExternalId));
  const [problem, setProblem] = useState<string | null>(null);
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  const form = useAppForm({
    defaultValues: EMPTY_IDENTITY,
    validators: { onChange: CreateIdentitySchema },
    onSubmit: ({ value }) => {
      const read = v.safeParse(CreateIdentitySchema, value);
      if (read.success) send(read.output);
    },
    onSubmitInvalid: focusFirstProblem,
  });
  const sent = useStore(form.store, (state) => state.submissionAttempts > 0);

  function send(identity: v.InferOutput<typeof CreateIdentitySchema>) {
    setProblem(null);
    mutation.mutate(identity, { onSuccess: ({ identityId }) => onCreated(identityId) });
  }

  return (
    <ActionDialog title="Create identity" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <PermissionGate connection={connection} action="create_identity" what="Creating an identity" probe={probe}>
        <form
          ref={formRef}
          className="action-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void form.handleSubmit();
          }}
        >
          <form.AppField name="externalId">
            {(field) => (
              <field.TextField
                label="External id"
                hint="Your system’s id for the customer: letters, digits, _ . and -, up to 255."
                mono
                maxLength={255}
                spellCheck={false}
              />
            )}
          </form.AppField>
          <form.AppField name="meta">
            {(field) => <field.TextAreaField label="Meta (JSON object)" rows={4} mono live />}
          </form.AppField>
          <RatelimitFields form={form} fields={{ ratelimits: "ratelimits" }} />
          <p className="field__hint">
            Its rate limits are shared: every verification of any of its keys counts against the same counter.
          </p>
          <FormEnd
            problem={sent ? problem : null}
            error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
            pending={mutation.isPending}
            label="Create identity"
            pendingLabel="Creating…"
          />
        </form>
      </PermissionGate>
    </ActionDialog>
  );
}
