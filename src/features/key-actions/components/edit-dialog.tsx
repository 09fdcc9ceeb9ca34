import { useId, useState, type FormEvent } from "react";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import type { RateLimit } from "@/lib/key-facts";
import { useNow } from "@/lib/hooks/use-now";
import { ANSWER_ON_ITS_WAY, useUpdateKey } from "../api/use-key-mutations";
import { useWorkspaceRoles } from "../api/use-workspace-choices";
import { keyAccess } from "../key-access";
import type { KeyCache } from "../key-cache";
import { AccessFields } from "./access-fields";
import { ActionDialog } from "./action-dialog";
import { editChanges, editDraft, localInput, raiseLimit, type EditDraft } from "./edit-draft";
import {
  CreditsFields,
  EnabledField,
  ExpiresField,
  ExternalIdField,
  FormEnd,
  MetaField,
  NameField,
  RatelimitFields,
} from "./form-parts";
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
    const built = editChanges(opened.initial, draft, {
      key: apiKey,
      access: keyAccess(apiKey, roles.data),
      workspaceRoles: roles.data,
      now,
    });
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
    <ActionDialog title="Edit key" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <form className="action-form" onSubmit={submit} noValidate>
        <NameField id={id} value={draft.name} onChange={(name) => set({ name })} />
        <ExpiresField id={id} value={draft.expires} onChange={(expires) => set({ expires })} />
        <CreditsFields id={id} value={draft.credits} onChange={(credits) => set({ credits })} />
        <RatelimitFields
          id={id}
          rows={draft.ratelimits}
          onChange={(ratelimits) => set({ ratelimits })}
          focusRow={opened.focusRow}
        />
        <AccessFields
          connection={connection}
          apiKey={apiKey}
          value={draft.access}
          onChange={(access) => set({ access })}
        />
        <ExternalIdField id={id} value={draft.externalId} onChange={(externalId) => set({ externalId })} />
        <MetaField
          id={id}
          value={draft.meta}
          onChange={(meta) => set({ meta })}
          check={parseMeta(draft.meta)}
          rows={4}
        />
        <EnabledField value={draft.enabled} onChange={(enabled) => set({ enabled })} />
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, send)}
          pending={mutation.isPending}
          label="Save changes"
          pendingLabel="Saving…"
        />
      </form>
    </ActionDialog>
  );
}
