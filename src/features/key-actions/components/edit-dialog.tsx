import { useId, useState, type FormEvent } from "react";
import type { Connection } from "../../../lib/api/transport";
import type { Key } from "../../../lib/contract";
import type { RateLimit } from "../../../lib/key-facts";
import { useNow } from "../../../lib/hooks/use-now";
import { useUpdateKey } from "../api/use-key-mutations";
import { useWorkspaceRoles } from "../api/use-workspace-choices";
import { keyAccess } from "../key-access";
import type { KeyCache } from "../key-cache";
import { AccessFields } from "./access-fields";
import { ActionDialog } from "./action-dialog";
import { editChanges, editDraft, localInput, raiseLimit, type EditDraft } from "./edit-draft";
import { CreditsFields, Field, FormEnd, MetaField, RatelimitFields } from "./form-parts";
import { parseMeta } from "./key-form-fields";
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

/** Edit: every field keys.updateKey takes, from the key as it is; only what was changed is sent. */
export function EditDialog({ connection, apiKey, cache, renderError, onClose, extendTo, raise }: EditDialogProps) {
  const id = useId();
  const now = useNow();
  const [opened] = useState(() => {
    const initial = editDraft(apiKey, now);
    const extended = extendTo === undefined ? initial : { ...initial, expires: localInput(extendTo) };
    if (raise === undefined) return { initial, draft: extended, focusRow: undefined };
    const raised = raiseLimit(extended, raise);
    return { initial, draft: raised.draft, focusRow: raised.row };
  });
  const [draft, setDraft] = useState<EditDraft>(opened.draft);
  const [problem, setProblem] = useState<string | null>(null);
  const roles = useWorkspaceRoles(connection);
  const mutation = useUpdateKey(connection, cache);
  const set = (patch: Partial<EditDraft>) => setDraft({ ...draft, ...patch });

  function send() {
    const built = editChanges(opened.initial, draft, { key: apiKey, access: keyAccess(apiKey, roles.data), workspaceRoles: roles.data, now });
    if (typeof built === "string") {
      setProblem(built);
      return;
    }
    if (Object.keys(built.changes).length === 0) {
      setProblem("Nothing changed.");
      return;
    }
    setProblem(null);
    mutation.mutate({ keyId: apiKey.keyId, ...built }, { onSuccess: onClose });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send();
  }

  return (
    <ActionDialog title="Edit key" onClose={onClose}>
      <form className="action-form" onSubmit={submit} noValidate>
        <Field inputId={`${id}-name`} label="Name">
          <input id={`${id}-name`} className="input" value={draft.name} onChange={(event) => set({ name: event.target.value })} autoComplete="off" />
        </Field>
        <Field inputId={`${id}-expires`} label="Expires" hint="Empty: never expires.">
          <input id={`${id}-expires`} type="datetime-local" className="input" value={draft.expires} onChange={(event) => set({ expires: event.target.value })} />
        </Field>
        <CreditsFields id={id} value={draft.credits} onChange={(credits) => set({ credits })} />
        <RatelimitFields id={id} rows={draft.ratelimits} onChange={(ratelimits) => set({ ratelimits })} focusRow={opened.focusRow} />
        <AccessFields connection={connection} apiKey={apiKey} value={draft.access} onChange={(access) => set({ access })} />
        <Field inputId={`${id}-external`} label="External id">
          <input id={`${id}-external`} className="input input--mono" value={draft.externalId} onChange={(event) => set({ externalId: event.target.value })} autoComplete="off" />
        </Field>
        <MetaField id={id} value={draft.meta} onChange={(meta) => set({ meta })} check={parseMeta(draft.meta)} rows={4} />
        <label className="action-form__check">
          <input type="checkbox" checked={draft.enabled} onChange={(event) => set({ enabled: event.target.checked })} /> Enabled
        </label>
        <FormEnd problem={problem} error={mutation.isError && renderError(mutation.error, send)} pending={mutation.isPending} label="Save changes" pendingLabel="Saving…" />
      </form>
    </ActionDialog>
  );
}
