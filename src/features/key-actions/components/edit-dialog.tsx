import { Field, FormEnd, MetaField } from "./form-parts";
import { useId, useState, type FormEvent } from "react";
import type { KeyFieldsInput } from "../../../lib/api/key-changes";
import type { Connection } from "../../../lib/api/transport";
import type { Key } from "../../../lib/contract";
import { useNow } from "../../../lib/hooks/use-now";
import { useUpdateKey } from "../api/use-key-mutations";
import type { KeyCache } from "../key-cache";
import { ActionDialog } from "./action-dialog";
import { parseExpires, parseMeta } from "./key-form-fields";
import type { RenderError } from "./render-error";

export interface EditDialogProps {
  connection: Connection;
  apiKey: Key;
  cache: KeyCache;
  renderError: RenderError;
  onClose: () => void;
  /** Prefills Expires with this instant (the verdict's "Extend"). */
  extendTo?: number;
}

/** A `datetime-local` value for an instant, in the user's time zone. */
function localInput(at: number | undefined): string {
  if (at === undefined) return "";
  const date = new Date(at);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Edit: the key's name, external id, meta, expiry and whether it is enabled; only what changed is sent. */
export function EditDialog({ connection, apiKey, cache, renderError, onClose, extendTo }: EditDialogProps) {
  const id = useId();
  const now = useNow();
  const [name, setName] = useState(apiKey.name ?? "");
  const [externalId, setExternalId] = useState(apiKey.identity?.externalId ?? "");
  const [meta, setMeta] = useState(apiKey.meta === undefined ? "" : JSON.stringify(apiKey.meta, null, 2));
  const [expires, setExpires] = useState(localInput(extendTo ?? apiKey.expires));
  const [enabled, setEnabled] = useState(apiKey.enabled !== false);
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useUpdateKey(connection, cache);
  const metaCheck = parseMeta(meta);

  function changes(): { changes: KeyFieldsInput; optimistic: Partial<Key> } | string {
    const result: KeyFieldsInput = {};
    const optimistic: Partial<Key> = {};
    if (name.trim() !== (apiKey.name ?? "")) {
      result.name = name.trim() === "" ? null : name.trim();
      if (name.trim() !== "") optimistic.name = name.trim();
    }
    if (externalId.trim() !== (apiKey.identity?.externalId ?? "")) result.externalId = externalId.trim() === "" ? null : externalId.trim();
    if (!metaCheck.ok) return `Meta: ${metaCheck.error}`;
    if (JSON.stringify(metaCheck.value) !== JSON.stringify(apiKey.meta)) result.meta = metaCheck.value ?? null;
    if (expires !== localInput(apiKey.expires)) {
      const at = parseExpires(expires, now);
      if (!at.ok) return `Expires: ${at.error}`;
      result.expires = at.value ?? null;
      if (at.value !== undefined) optimistic.expires = at.value;
    }
    if (enabled !== (apiKey.enabled !== false)) {
      result.enabled = enabled;
      optimistic.enabled = enabled;
    }
    return { changes: result, optimistic };
  }

  function send() {
    const built = changes();
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
          <input id={`${id}-name`} className="input" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
        </Field>
        <Field inputId={`${id}-expires`} label="Expires" hint="Empty: never expires.">
          <input id={`${id}-expires`} type="datetime-local" className="input" value={expires} onChange={(event) => setExpires(event.target.value)} />
        </Field>
        <Field inputId={`${id}-external`} label="External id">
          <input id={`${id}-external`} className="input input--mono" value={externalId} onChange={(event) => setExternalId(event.target.value)} autoComplete="off" />
        </Field>
        <MetaField id={id} value={meta} onChange={setMeta} check={metaCheck} rows={4} />
        <label className="action-form__check">
          <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} /> Enabled
        </label>
        <FormEnd problem={problem} error={mutation.isError && renderError(mutation.error, send)} pending={mutation.isPending} label="Save changes" pendingLabel="Saving…" />
      </form>
    </ActionDialog>
  );
}
