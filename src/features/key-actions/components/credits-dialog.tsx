import { Field, FormEnd } from "./form-parts";
import { useId, useState, type FormEvent } from "react";
import type { Connection } from "@/lib/api/transport";
import type { CreditsChange } from "@/lib/api/update-credits";
import type { Key } from "@/lib/contract";
import { formatCount } from "@/lib/format-number";
import { ANSWER_ON_ITS_WAY, useUpdateCredits } from "../api/use-key-mutations";
import type { KeyCache } from "../key-cache";
import { ActionDialog } from "./action-dialog";
import { parseWhole } from "./key-form-fields";
import type { RenderError } from "./render-error";

export type CreditsMode = "set" | "increment" | "decrement" | "unlimited";

const MODES: { mode: CreditsMode; label: string }[] = [
  { mode: "increment", label: "Add" },
  { mode: "decrement", label: "Remove" },
  { mode: "set", label: "Set to" },
  { mode: "unlimited", label: "Unlimited" },
];

export interface CreditsDialogProps {
  connection: Connection;
  apiKey: Key;
  cache: KeyCache;
  renderError: RenderError;
  onClose: () => void;
  initialMode?: CreditsMode;
  initialValue?: number;
}

/** A key's credits: set, add, remove, or unlimited, with one number field. */
export function CreditsDialog({
  connection,
  apiKey,
  cache,
  renderError,
  onClose,
  initialMode = "increment",
  initialValue,
}: CreditsDialogProps) {
  const id = useId();
  const [mode, setMode] = useState<CreditsMode>(initialMode);
  const [value, setValue] = useState(initialValue === undefined ? "" : String(initialValue));
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useUpdateCredits(connection, cache);
  const remaining = apiKey.credits?.remaining;

  function send() {
    let change: CreditsChange;
    if (mode === "unlimited") change = { operation: "set", value: null };
    else {
      const number = parseWhole(value, mode === "set" ? 0 : 1);
      if (!number.ok || number.value === undefined) {
        setProblem(number.ok ? "Enter a number of credits" : number.error);
        return;
      }
      change = mode === "set" ? { operation: "set", value: number.value } : { operation: mode, value: number.value };
    }
    setProblem(null);
    mutation.mutate({ keyId: apiKey.keyId, change }, { onSuccess: onClose });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send();
  }

  return (
    <ActionDialog title="Credits" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <form className="action-form" onSubmit={submit} noValidate>
        <p>
          Now: {remaining === undefined || remaining === null ? "unlimited" : `${formatCount(remaining)} remaining`}
          {apiKey.credits?.refill &&
            `, refilled ${apiKey.credits.refill.interval} to ${formatCount(apiKey.credits.refill.amount)}`}
          .
        </p>
        <fieldset className="action-form__group">
          <legend>Change</legend>
          {MODES.map((choice) => (
            <label key={choice.mode} className="action-form__check">
              <input
                type="radio"
                name={`${id}-mode`}
                checked={mode === choice.mode}
                onChange={() => setMode(choice.mode)}
              />{" "}
              {choice.label}
            </label>
          ))}
        </fieldset>
        {mode !== "unlimited" && (
          <Field inputId={`${id}-value`} label="Credits">
            <input
              id={`${id}-value`}
              type="number"
              min={0}
              step={1}
              className="input"
              value={value}
              onChange={(event) => setValue(event.target.value)}
            />
          </Field>
        )}
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, send)}
          pending={mutation.isPending}
          label="Save credits"
          pendingLabel="Saving…"
        />
      </form>
    </ActionDialog>
  );
}
