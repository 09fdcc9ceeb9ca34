import type { ReactNode } from "react";
import type { Parsed } from "./key-form-fields";

interface MetaFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  check: Parsed<unknown>;
  rows: number;
}

/** Meta as JSON text, its problem said under it as it is typed. */
export function MetaField({ id, value, onChange, check, rows }: MetaFieldProps) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-meta`}>
        Meta (JSON)
      </label>
      <textarea
        id={`${id}-meta`}
        className="input input--mono"
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={!check.ok}
        aria-describedby={check.ok ? undefined : `${id}-meta-error`}
        spellCheck={false}
      />
      {!check.ok && (
        <span id={`${id}-meta-error`} className="field__error">
          {check.error}
        </span>
      )}
    </div>
  );
}

interface FormEndProps {
  /** What the form itself finds wrong before sending, if anything. */
  problem?: string | null;
  /** The panel of a refused or failed request, if there is one. */
  error: ReactNode;
  pending: boolean;
  label: string;
  pendingLabel: string;
  disabled?: boolean;
  danger?: boolean;
}

/** The end of every key-changing form: what stops it, the request's failure, and the submit button. */
export function FormEnd({ problem = null, error, pending, label, pendingLabel, disabled = false, danger = false }: FormEndProps) {
  return (
    <>
      {problem !== null && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
      {error}
      <div className="action-form__buttons">
        <button type="submit" className={danger ? "button button--danger" : "button button--primary"} disabled={disabled || pending}>
          {pending ? pendingLabel : label}
        </button>
      </div>
    </>
  );
}

interface FieldProps {
  /** The id of the control the label names. */
  inputId: string;
  label: string;
  hint?: string;
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
