import { useStore } from "@tanstack/react-form";
import type { ReactNode } from "react";
import { withFieldGroup } from "@/components/form/app-form";
import { EMPTY_RATELIMIT, type CreditsDraft, type RatelimitRow, type RefillChoice } from "./key-form-fields";

interface FieldProps {
  /** The id of the control the label names. */
  inputId: string;
  label: string;
  hint?: string | undefined;
  children: ReactNode;
}

/** One labelled control of a key form, with its hint under it. */
export function Field({ inputId, label, hint, children }: FieldProps) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      {children}
      {hint !== undefined && <span className="field__hint">{hint}</span>}
    </div>
  );
}

const REFILLS: readonly { value: RefillChoice; label: string }[] = [
  { value: "none", label: "No refill" },
  { value: "daily", label: "Daily" },
  { value: "monthly", label: "Monthly" },
];

const NO_CREDITS: CreditsDraft = { remaining: "", refill: "none", amount: "", refillDay: "1" };

/** Credits with their refill: the count (empty: unlimited), daily or monthly, the amount, a monthly refill's day. */
export const CreditsFields = withFieldGroup({
  defaultValues: NO_CREDITS,
  render: function CreditsFields({ group }) {
    const refill = useStore(group.store, (state) => state.values.refill);
    return (
      <fieldset className="action-form__group">
        <legend>Credits</legend>
        <group.AppField name="remaining">
          {(field) => <field.NumberField label="Credits" hint="Empty: unlimited." min={0} />}
        </group.AppField>
        <group.AppField name="refill">
          {(field) => <field.SelectField label="Refill" options={REFILLS} />}
        </group.AppField>
        {refill !== "none" && (
          <group.AppField name="amount">
            {(field) => (
              <field.NumberField
                label="Refill amount"
                hint="A refill sets the credits to this, whatever is left."
                min={1}
              />
            )}
          </group.AppField>
        )}
        {refill === "monthly" && (
          <group.AppField name="refillDay">
            {(field) => (
              <field.NumberField
                label="Refill day"
                hint="Day of the month, 1–31 (UTC); in a shorter month, its last day."
                min={1}
                max={31}
              />
            )}
          </group.AppField>
        )}
      </fieldset>
    );
  },
});

/** RatelimitFields' own props: the row whose request count takes the focus when the dialog opens (Raise limit). */
const RATELIMIT_PROPS: { focusRow?: number | undefined } = {};
const NO_RATELIMITS: { ratelimits: RatelimitRow[] } = { ratelimits: [] };

/** Named rate limits: requests per window, whether every verification is checked against it; added and removed by row. */
export const RatelimitFields = withFieldGroup({
  defaultValues: NO_RATELIMITS,
  props: RATELIMIT_PROPS,
  render: function RatelimitFields({ group, focusRow }) {
    const rows = useStore(group.store, (state) => state.values.ratelimits);
    return (
      <fieldset className="action-form__group">
        <legend>Rate limits</legend>
        {rows.length === 0 && <p className="field__hint">No rate limits.</p>}
        {rows.map((row, index) => (
          <div className="action-form__row" key={index}>
            <group.AppField name={`ratelimits[${index}].name`}>
              {(field) => <field.TextField label="Limit name" />}
            </group.AppField>
            <group.AppField name={`ratelimits[${index}].limit`}>
              {(field) => <field.NumberField label="Requests" min={1} autoFocusOnOpen={index === focusRow} />}
            </group.AppField>
            <group.AppField name={`ratelimits[${index}].seconds`}>
              {(field) => <field.NumberField label="Per seconds" min={1} decimal />}
            </group.AppField>
            <group.AppField name={`ratelimits[${index}].autoApply`}>
              {(field) => <field.CheckboxField label="Every verification" />}
            </group.AppField>
            <button
              type="button"
              className="button button--small"
              aria-label={`Remove rate limit ${row.name.trim() === "" ? index + 1 : row.name.trim()}`}
              onClick={() => void group.removeFieldValue("ratelimits", index)}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button button--small"
          onClick={() => group.pushFieldValue("ratelimits", EMPTY_RATELIMIT)}
        >
          Add a rate limit
        </button>
        <p className="field__hint">
          “Every verification”: checked on each one; otherwise only when a verification names the limit.
        </p>
      </fieldset>
    );
  },
});
