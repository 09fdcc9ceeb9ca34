import { useStore } from "@tanstack/react-form";
import { useId, useState } from "react";
import * as v from "valibot";
import { useAppForm } from "@/components/form/app-form";
import { useProblemFocus } from "@/components/form/use-problem-focus";
import { CreditCountSchema, RefillAmountSchema } from "@/lib/api/key-fields";
import type { Connection } from "@/lib/api/transport";
import type { CreditsChange } from "@/lib/api/update-credits";
import type { Key } from "@/lib/contract";
import { wholeNumberText } from "@/lib/field-text";
import { formatCount } from "@/lib/format-number";
import { useUpdateCredits } from "../api/use-key-mutations";
import type { KeyCache } from "../key-cache";
import { ActionDialog, ANSWER_ON_ITS_WAY } from "@/components/action-dialog";
import "./key-actions.css";
import { FormEnd } from "@/components/form/form-end";
import type { RenderError } from "./render-error";

export type CreditsMode = "set" | "increment" | "decrement" | "unlimited";

const MODES: { mode: CreditsMode; label: string }[] = [
  { mode: "increment", label: "Add" },
  { mode: "decrement", label: "Remove" },
  { mode: "set", label: "Set to" },
  { mode: "unlimited", label: "Unlimited" },
];

/**
 * The change as the form has it read: unlimited needs no number; set takes 0 or more, add and remove 1 or more (the
 * service's bounds); the number's problem at its field.
 */
const CreditsChangeSchema = v.pipe(
  v.object({ mode: v.picklist(["set", "increment", "decrement", "unlimited"]), value: v.string() }),
  v.rawTransform(({ dataset, addIssue, NEVER }): CreditsChange => {
    const { mode, value } = dataset.value;
    if (mode === "unlimited") return { operation: "set", value: null };
    const count = v.safeParse(wholeNumberText(mode === "set" ? CreditCountSchema : RefillAmountSchema), value);
    if (!count.success || count.output === undefined) {
      addIssue({
        message: count.success ? "Enter a number of credits" : count.issues[0].message,
        path: [{ type: "object", origin: "value", input: dataset.value, key: "value", value }],
      });
      return NEVER;
    }
    return mode === "set" ? { operation: "set", value: count.output } : { operation: mode, value: count.output };
  }),
);

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
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useUpdateCredits(connection, cache);
  const remaining = apiKey.credits?.remaining;
  const { formRef, focusFirstProblem } = useProblemFocus(setProblem);
  const form = useAppForm({
    defaultValues: { mode: initialMode, value: initialValue === undefined ? "" : String(initialValue) },
    validators: { onChange: CreditsChangeSchema },
    onSubmit: ({ value }) => {
      const change = v.safeParse(CreditsChangeSchema, value);
      if (!change.success) return;
      setProblem(null);
      mutation.mutate({ keyId: apiKey.keyId, change: change.output }, { onSuccess: onClose });
    },
    onSubmitInvalid: focusFirstProblem,
  });
  const mode = useStore(form.store, (state) => state.values.mode);

  return (
    <ActionDialog title="Credits" onClose={onClose} busy={mutation.isPending ? ANSWER_ON_ITS_WAY : undefined}>
      <form
        ref={formRef}
        className="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
        noValidate
      >
        <p>
          Now: {remaining === undefined || remaining === null ? "unlimited" : `${formatCount(remaining)} remaining`}
          {apiKey.credits?.refill &&
            `, refilled ${apiKey.credits.refill.interval} to ${formatCount(apiKey.credits.refill.amount)}`}
          .
        </p>
        <fieldset className="action-form__group">
          <legend>Change</legend>
          <form.Field name="mode">
            {(field) =>
              MODES.map((choice) => (
                <label key={choice.mode} className="action-form__check">
                  <input
                    type="radio"
                    name={`${id}-mode`}
                    checked={field.state.value === choice.mode}
                    onChange={() => field.handleChange(choice.mode)}
                  />{" "}
                  {choice.label}
                </label>
              ))
            }
          </form.Field>
        </fieldset>
        {mode !== "unlimited" && (
          <form.AppField name="value">
            {(field) => <field.NumberField label="Credits" min={mode === "set" ? 0 : 1} />}
          </form.AppField>
        )}
        <FormEnd
          problem={problem}
          error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
          pending={mutation.isPending}
          label="Save credits"
          pendingLabel="Saving…"
        />
      </form>
    </ActionDialog>
  );
}
