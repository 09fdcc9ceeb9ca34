import type { ReactNode } from "react";
import {
  EMPTY_RATELIMIT,
  type CreditsDraft,
  type Parsed,
  type RatelimitRow,
  type RefillChoice,
} from "./key-form-fields";

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
export function FormEnd({
  problem = null,
  error,
  pending,
  label,
  pendingLabel,
  disabled = false,
  danger = false,
}: FormEndProps) {
  return (
    <>
      {problem !== null && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
      {error}
      <div className="action-form__buttons">
        <button
          type="submit"
          className={danger ? "button button--danger" : "button button--primary"}
          disabled={disabled || pending}
        >
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

interface CreditsFieldsProps {
  id: string;
  value: CreditsDraft;
  onChange: (value: CreditsDraft) => void;
}

/** Credits with their refill: the count (empty: unlimited), daily or monthly, the amount, a monthly refill's day. */
export function CreditsFields({ id, value, onChange }: CreditsFieldsProps) {
  const set = (patch: Partial<CreditsDraft>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="action-form__group">
      <legend>Credits</legend>
      <Field inputId={`${id}-credits`} label="Credits" hint="Empty: unlimited.">
        <input
          id={`${id}-credits`}
          type="number"
          min={0}
          step={1}
          className="input"
          value={value.remaining}
          onChange={(event) => set({ remaining: event.target.value })}
        />
      </Field>
      <Field inputId={`${id}-refill`} label="Refill">
        <select
          id={`${id}-refill`}
          className="input"
          value={value.refill}
          onChange={(event) => set({ refill: refillChoice(event.target.value) })}
        >
          <option value="none">No refill</option>
          <option value="daily">Daily</option>
          <option value="monthly">Monthly</option>
        </select>
      </Field>
      {value.refill !== "none" && (
        <Field
          inputId={`${id}-refill-amount`}
          label="Refill amount"
          hint="A refill sets the credits to this, whatever is left."
        >
          <input
            id={`${id}-refill-amount`}
            type="number"
            min={1}
            step={1}
            className="input"
            value={value.amount}
            onChange={(event) => set({ amount: event.target.value })}
          />
        </Field>
      )}
      {value.refill === "monthly" && (
        <Field
          inputId={`${id}-refill-day`}
          label="Refill day"
          hint="Day of the month, 1–31 (UTC); in a shorter month, its last day."
        >
          <input
            id={`${id}-refill-day`}
            type="number"
            min={1}
            max={31}
            step={1}
            className="input"
            value={value.refillDay}
            onChange={(event) => set({ refillDay: event.target.value })}
          />
        </Field>
      )}
    </fieldset>
  );
}

function refillChoice(value: string): RefillChoice {
  return value === "daily" || value === "monthly" ? value : "none";
}

interface RatelimitFieldsProps {
  id: string;
  rows: readonly RatelimitRow[];
  onChange: (rows: RatelimitRow[]) => void;
  /** The row whose request count takes the focus when the form opens (the verdict's "Raise limit"). */
  focusRow?: number | undefined;
}

/**
 * The verdict's "Raise limit" opens the form at a field: the HTML `autofocus` attribute, which the modal dialog's
 * `showModal` honours when it opens (React's `autoFocus` focuses the field before that, and `showModal` moves it away).
 */
function markAutofocus(input: HTMLInputElement | null) {
  input?.setAttribute("autofocus", "");
}

/** Named rate limits: requests per window, whether every verification is checked against it; added and removed by row. */
export function RatelimitFields({ id, rows, onChange, focusRow }: RatelimitFieldsProps) {
  const setRow = (index: number, patch: Partial<RatelimitRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="action-form__group">
      <legend>Rate limits</legend>
      {rows.length === 0 && <p className="field__hint">No rate limits.</p>}
      {rows.map((row, index) => (
        <div className="action-form__row" key={index}>
          <Field inputId={`${id}-rl-name-${index}`} label="Limit name">
            <input
              id={`${id}-rl-name-${index}`}
              className="input"
              value={row.name}
              onChange={(event) => setRow(index, { name: event.target.value })}
              autoComplete="off"
            />
          </Field>
          <Field inputId={`${id}-rl-limit-${index}`} label="Requests">
            <input
              id={`${id}-rl-limit-${index}`}
              type="number"
              min={1}
              className="input"
              value={row.limit}
              onChange={(event) => setRow(index, { limit: event.target.value })}
              ref={index === focusRow ? markAutofocus : undefined}
            />
          </Field>
          <Field inputId={`${id}-rl-window-${index}`} label="Per seconds">
            <input
              id={`${id}-rl-window-${index}`}
              type="number"
              min={1}
              step="any"
              className="input"
              value={row.seconds}
              onChange={(event) => setRow(index, { seconds: event.target.value })}
            />
          </Field>
          <label className="action-form__check">
            <input
              type="checkbox"
              checked={row.autoApply}
              onChange={(event) => setRow(index, { autoApply: event.target.checked })}
            />{" "}
            Every verification
          </label>
          <button
            type="button"
            className="button button--small"
            aria-label={`Remove rate limit ${row.name.trim() === "" ? index + 1 : row.name.trim()}`}
            onClick={() => onChange(rows.filter((_row, at) => at !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="button button--small" onClick={() => onChange([...rows, EMPTY_RATELIMIT])}>
        Add a rate limit
      </button>
      <p className="field__hint">
        “Every verification”: checked on each one; otherwise only when a verification names the limit.
      </p>
    </fieldset>
  );
}

interface ValueFieldProps<T> {
  id: string;
  value: T;
  onChange: (value: T) => void;
}

/** The key's name. */
export function NameField({ id, value, onChange }: ValueFieldProps<string>) {
  return (
    <Field inputId={`${id}-name`} label="Name">
      <input
        id={`${id}-name`}
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
      />
    </Field>
  );
}

/** When the key expires, in the user's time zone; empty is never. */
export function ExpiresField({ id, value, onChange }: ValueFieldProps<string>) {
  return (
    <Field inputId={`${id}-expires`} label="Expires" hint="Empty: never expires.">
      <input
        id={`${id}-expires`}
        type="datetime-local"
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/** The identity the key belongs to, by the caller's own id for it. */
export function ExternalIdField({ id, value, onChange }: ValueFieldProps<string>) {
  return (
    <Field inputId={`${id}-external`} label="External id">
      <input
        id={`${id}-external`}
        className="input input--mono"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
      />
    </Field>
  );
}

/** Whether verifications of the key may pass at all. */
export function EnabledField({ value, onChange }: Omit<ValueFieldProps<boolean>, "id">) {
  return (
    <label className="action-form__check">
      <input type="checkbox" checked={value} onChange={(event) => onChange(event.target.checked)} /> Enabled
    </label>
  );
}
