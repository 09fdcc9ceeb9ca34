import { useStore } from "@tanstack/react-form";
import type { ReactNode } from "react";
import { withFieldGroup } from "@/components/form/app-form";
import type { CreditsDraft, RefillChoice } from "./key-form-fields";

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
