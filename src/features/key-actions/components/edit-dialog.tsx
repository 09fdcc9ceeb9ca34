import { useStore } from "@tanstack/react-form";
import { useMemo, useState } from "react";
import * as v from "valibot";
import { useAppForm } from "@/components/form/app-form";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import type { RateLimit } from "@/lib/key-facts";
import { ambiguousTimeNote } from "@/lib/field-text";
import { useNow } from "@/lib/hooks/use-now";
import { useUpdateKey } from "../api/use-key-mutations";
import { useWorkspaceRoles } from "../api/use-workspace-choices";
import { changedFields, describeChange, listed, type KeyField } from "../changed-under";
import { keyAccess } from "../key-access";
import type { KeyCache } from "../key-cache";
import { AccessFields } from "./access-fields";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import "./key-actions.css";
import {
  EDIT_FIELDS,
  editChanges,
  editDraft,
  editSchema,
  expiresAt,
  raiseLimit,
  type EditDraft,
  type EditRead,
} from "./edit-draft";
import { FormEnd } from "@/components/form/form-end";
import { RatelimitFields } from "@/components/form/ratelimit-fields";
import { CreditsFields } from "./form-parts";
import { KeyChangedNote } from "./key-changed-note";
import { expiresFieldMax } from "./key-form-fields";
import type { RenderError } from "./render-error";

export interface EditDialogProps {
  connection: Connection;
  apiKey: Key;
  cache: KeyCache;
  renderError: RenderError;
  onClose: () => void;
  /** Prefills Expires with this instant (the verdict's "Extend"). */
  extendTo?: number;
  /** Prefills this rate limit raised, its request count focused (the verdict's "Raise limit"). */
  raise?: RateLimit;
}

/** The key's fields Edit shows, each of which another tab may change while it is open. */
const SHOWN: readonly KeyField[] = [
  "name",
  "expires",
  "credits",
  "ratelimits",
  "permissions",
  "roles",
  "externalId",
  "meta",
  "enabled",
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Edit: every field keys.updateKey takes, from the key as it is; only what was changed is sent. When the key changes
 * under the form (another tab), the form says so and offers the new values; a field changed both here and there is
 * sent only once the user saves again.
 */
export function EditDialog({ connection, apiKey, cache, renderError, onClose, extendTo, raise }: EditDialogProps) {
  const now = useNow();
  const [start] = useState(() => {
    const draft = editDraft(apiKey, now);
    const extended = extendTo === undefined ? draft : { ...draft, expires: expiresAt(extendTo) };
    const raised = raise === undefined ? undefined : raiseLimit(extended, raise);
    return { openedAt: now, draft, prefilled: raised?.draft ?? extended, focusRow: raised?.row };
  });
  // The key, and the form's fields, as the form last took them: as it opened, or the new values taken since.
  const [opened, setOpened] = useState({ key: apiKey, draft: start.draft });
  const [problem, setProblem] = useState<string | null>(null);
  // The fields changed both here and under the form, once the user was told: a second Save sends them.
  const [overwrite, setOverwrite] = useState<string | null>(null);
  const roles = useWorkspaceRoles(connection);
  const mutation = useUpdateKey(connection, cache);
  const schema = useMemo(() => editSchema(opened.draft, now), [opened.draft, now]);
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  // While this form's own change is on its way (shown at once) or made, the key differs for that reason alone.
  const changedUnder = mutation.isPending || mutation.isSuccess ? [] : changedFields(opened.key, apiKey, SHOWN);

  const form = useAppForm({
    defaultValues: start.prefilled,
    validators: { onChange: schema },
    onSubmit: ({ value }) => {
      const read = v.safeParse(schema, value);
      if (read.success) send(read.output, value);
    },
    onSubmitInvalid: focusFirstProblem,
  });
  const expires = useStore(form.store, (state) => state.values.expires);

  function send(read: EditRead, values: EditDraft) {
    const conflicts = changedUnder.filter(
      (field) => !same(values[EDIT_FIELDS[field]], opened.draft[EDIT_FIELDS[field]]),
    );
    if (conflicts.length > 0 && overwrite !== conflicts.join()) {
      setOverwrite(conflicts.join());
      setProblem(
        `Changed both here and elsewhere since this form opened: ${listed(conflicts.map((field) => describeChange(field, apiKey)))}. Save again to replace that with what this form has, or take the new values.`,
      );
      return;
    }
    const built = editChanges(read, {
      opened: opened.draft,
      key: apiKey,
      access: keyAccess(apiKey, roles.data),
      workspaceRoles: roles.data,
    });
    if (Object.keys(built.changes).length === 0) {
      setProblem("Nothing changed.");
      return;
    }
    setProblem(null);
    mutation.mutate({ keyId: apiKey.keyId, ...built }, { onSuccess: onClose });
  }

  function takeNewValues() {
    const latest = editDraft(apiKey, start.openedAt);
    const taken = new Set(changedUnder.map((field) => EDIT_FIELDS[field]));
    if (taken.has("name")) form.setFieldValue("name", latest.name);
    if (taken.has("expires")) form.setFieldValue("expires", latest.expires);
    if (taken.has("externalId")) form.setFieldValue("externalId", latest.externalId);
    if (taken.has("meta")) form.setFieldValue("meta", latest.meta);
    if (taken.has("enabled")) form.setFieldValue("enabled", latest.enabled);
    if (taken.has("credits")) form.setFieldValue("credits", latest.credits);
    if (taken.has("ratelimits")) form.setFieldValue("ratelimits", latest.ratelimits);
    if (taken.has("access")) form.setFieldValue("access", latest.access);
    setOpened({ key: apiKey, draft: latest });
    setOverwrite(null);
    setProblem(null);
  }

  return (
    <ActionDialog title="Edit key" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
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
        <form.AppField name="name">{(field) => <field.TextField label="Name" />}</form.AppField>
        <form.AppField name="expires">
          {(field) => (
            <field.DateTimeField
              label="Expires"
              hint="Empty: never expires."
              note={ambiguousTimeNote(expires)}
              max={expiresFieldMax()}
            />
          )}
        </form.AppField>
        <CreditsFields form={form} fields="credits" />
        <RatelimitFields form={form} fields={{ ratelimits: "ratelimits" }} focusRow={start.focusRow} />
        <AccessFields form={form} fields="access" connection={connection} apiKey={apiKey} />
        <form.AppField name="externalId">{(field) => <field.TextField label="External id" mono />}</form.AppField>
        <form.AppField name="meta">
          {(field) => <field.TextAreaField label="Meta (JSON)" rows={4} mono live />}
        </form.AppField>
        <form.AppField name="enabled">{(field) => <field.CheckboxField label="Enabled" />}</form.AppField>
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
          pending={mutation.isPending}
          label="Save changes"
          pendingLabel="Saving…"
        />
      </form>
    </ActionDialog>
  );
}
