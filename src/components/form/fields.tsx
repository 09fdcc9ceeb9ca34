import { useStore } from "@tanstack/react-form";
import { useId, type KeyboardEvent, type ReactNode } from "react";
import type { DateTimeText } from "../../lib/field-text";
import { useFieldContext } from "./form-context";

/** A problem a field's validators found, in words (a schema's issue carries them as its `message`). */
function wordsOf(error: unknown): string | undefined {
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string")
    return error.message;
  return undefined;
}

/** The first of a field's problems, in words. */
export function firstProblem(errors: readonly unknown[]): string | undefined {
  for (const error of errors) {
    const words = wordsOf(error);
    if (words !== undefined) return words;
  }
  return undefined;
}

/**
 * The field's problem, once it is the user's to fix: after the field was left or the form sent; as it is typed for a
 * `live` field (JSON, say, where a problem is easier read while typing).
 */
function useProblem(live: boolean): string | undefined {
  const field = useFieldContext<unknown>();
  const sent = useStore(field.form.store, (state) => state.submissionAttempts > 0);
  const { errors, isBlurred, isTouched } = field.state.meta;
  return sent || isBlurred || (live && isTouched) ? firstProblem(errors) : undefined;
}

interface FrameProps {
  inputId: string;
  label: ReactNode;
  hint?: string | undefined;
  note?: string | undefined;
  problem: string | undefined;
  children: ReactNode;
}

/** A labelled control with its problem right under it, then its note and hint; the ids that describe the control. */
function useDescription(hint: string | undefined, note: string | undefined, problem: string | undefined) {
  const id = useId();
  const ids = { input: `${id}-input`, problem: `${id}-problem`, note: `${id}-note`, hint: `${id}-hint` };
  const describedBy =
    [problem && ids.problem, note && ids.note, hint && ids.hint].filter((part) => Boolean(part)).join(" ") || undefined;
  return { ids, describedBy };
}

function Frame({ inputId, label, hint, note, problem, children, ids }: FrameProps & { ids: Record<string, string> }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      {children}
      {problem !== undefined && (
        <span id={ids.problem} className="field__error">
          {problem}
        </span>
      )}
      {note !== undefined && (
        <span id={ids.note} className="field__note">
          {note}
        </span>
      )}
      {hint !== undefined && (
        <span id={ids.hint} className="field__hint">
          {hint}
        </span>
      )}
    </div>
  );
}

/**
 * The verdict's "Raise limit" opens a form at a field: the HTML `autofocus` attribute, which a modal dialog's
 * `showModal` honours when it opens (React's `autoFocus` focuses the field before that, and `showModal` moves it away).
 */
function markAutofocus(input: HTMLInputElement | null) {
  input?.setAttribute("autofocus", "");
}

interface TextFieldProps {
  label: ReactNode;
  hint?: string;
  /** Said under the field, not a problem. */
  note?: string | undefined;
  /** The problem said as it is typed, not once the field is left. */
  live?: boolean;
  mono?: boolean;
  maxLength?: number;
  spellCheck?: boolean;
}

export function TextField({ label, hint, note, live = false, mono = false, maxLength, spellCheck }: TextFieldProps) {
  const field = useFieldContext<string>();
  const problem = useProblem(live);
  const { ids, describedBy } = useDescription(hint, note, problem);
  return (
    <Frame inputId={ids.input} ids={ids} label={label} hint={hint} note={note} problem={problem}>
      <input
        id={ids.input}
        name={field.name}
        className={mono ? "input input--mono" : "input"}
        value={field.state.value}
        onChange={(event) => field.handleChange(event.target.value)}
        onBlur={field.handleBlur}
        autoComplete="off"
        maxLength={maxLength}
        spellCheck={spellCheck}
        aria-invalid={problem !== undefined}
        aria-describedby={describedBy}
      />
    </Frame>
  );
}

export function TextAreaField({
  label,
  rows,
  live = false,
  mono = false,
}: {
  label: ReactNode;
  rows: number;
  live?: boolean;
  mono?: boolean;
}) {
  const field = useFieldContext<string>();
  const problem = useProblem(live);
  const { ids, describedBy } = useDescription(undefined, undefined, problem);
  return (
    <Frame inputId={ids.input} ids={ids} label={label} problem={problem}>
      <textarea
        id={ids.input}
        name={field.name}
        className={mono ? "input input--mono" : "input"}
        rows={rows}
        value={field.state.value}
        onChange={(event) => field.handleChange(event.target.value)}
        onBlur={field.handleBlur}
        spellCheck={false}
        aria-invalid={problem !== undefined}
        aria-describedby={describedBy}
      />
    </Frame>
  );
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

interface NumberFieldProps {
  label: ReactNode;
  hint?: string;
  min?: number;
  max?: number;
  /** A decimal number (a window in seconds); else a whole one. */
  decimal?: boolean;
  /** Focused when the dialog it is in opens. */
  autoFocusOnOpen?: boolean;
}

/**
 * A number typed as text and kept as the text (the form's schema reads it): not `<input type="number">`, whose value
 * is empty for text it cannot read (`50-`, `1e309`), so that a mistyped number looked like none. Still a spin button
 * to assistive technology and the keyboard: Up and Down step it by one within its bounds.
 */
export function NumberField({ label, hint, min, max, decimal = false, autoFocusOnOpen = false }: NumberFieldProps) {
  const field = useFieldContext<string>();
  const problem = useProblem(false);
  const { ids, describedBy } = useDescription(hint, undefined, problem);
  const text = field.state.value.trim();
  const now = NUMBER.test(text) ? Number(text) : undefined;

  function step(event: KeyboardEvent<HTMLInputElement>) {
    const by = event.key === "ArrowUp" ? 1 : event.key === "ArrowDown" ? -1 : 0;
    if (by === 0 || (text !== "" && now === undefined)) return;
    event.preventDefault();
    const stepped = Math.min(
      max ?? Infinity,
      Math.max(min ?? -Infinity, (now ?? min ?? 0) + (now === undefined ? 0 : by)),
    );
    field.handleChange(String(stepped));
  }

  return (
    <Frame inputId={ids.input} ids={ids} label={label} hint={hint} problem={problem}>
      <input
        id={ids.input}
        name={field.name}
        type="text"
        inputMode={decimal ? "decimal" : "numeric"}
        role="spinbutton"
        aria-valuenow={now}
        aria-valuemin={min}
        aria-valuemax={max}
        className="input"
        value={field.state.value}
        onChange={(event) => field.handleChange(event.target.value)}
        onKeyDown={step}
        onBlur={field.handleBlur}
        autoComplete="off"
        spellCheck={false}
        ref={autoFocusOnOpen ? markAutofocus : undefined}
        aria-invalid={problem !== undefined}
        aria-describedby={describedBy}
      />
    </Frame>
  );
}

/**
 * A local date and time: the browser's own control, its value read as text by the form's schema (never as the
 * browser's number, which is UTC). A date and time filled in only in part has an empty value, like an empty field:
 * the control's `badInput` tells them apart, read as it changes, when it is left and before Enter sends the form.
 */
export function DateTimeField({ label, hint, note, max }: TextFieldProps & { max?: string }) {
  const field = useFieldContext<DateTimeText>();
  const problem = useProblem(false);
  const { ids, describedBy } = useDescription(hint, note, problem);
  const read = (input: HTMLInputElement) => {
    const next = { text: input.value, incomplete: input.validity.badInput };
    const shown = field.state.value;
    if (next.text !== shown.text || next.incomplete !== shown.incomplete) field.handleChange(next);
  };
  return (
    <Frame inputId={ids.input} ids={ids} label={label} hint={hint} note={note} problem={problem}>
      <input
        id={ids.input}
        name={field.name}
        type="datetime-local"
        className="input"
        max={max}
        value={field.state.value.text}
        onChange={(event) => read(event.currentTarget)}
        onInput={(event) => read(event.currentTarget)}
        onKeyDown={(event) => {
          if (event.key === "Enter") read(event.currentTarget);
        }}
        onBlur={(event) => {
          read(event.currentTarget);
          field.handleBlur();
        }}
        aria-invalid={problem !== undefined}
        aria-describedby={describedBy}
      />
    </Frame>
  );
}

export function CheckboxField({ label }: { label: ReactNode }) {
  const field = useFieldContext<boolean>();
  return (
    <label className="action-form__check">
      <input
        type="checkbox"
        name={field.name}
        checked={field.state.value}
        onChange={(event) => field.handleChange(event.target.checked)}
        onBlur={field.handleBlur}
      />{" "}
      {label}
    </label>
  );
}

export function SelectField<T extends string>({
  label,
  hint,
  options,
}: {
  label: ReactNode;
  hint?: string;
  options: readonly { value: T; label: string }[];
}) {
  const field = useFieldContext<T>();
  const { ids, describedBy } = useDescription(hint, undefined, undefined);
  return (
    <Frame inputId={ids.input} ids={ids} label={label} hint={hint} problem={undefined}>
      <select
        id={ids.input}
        name={field.name}
        className="input"
        value={field.state.value}
        onChange={(event) => {
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen !== undefined) field.handleChange(chosen.value);
        }}
        onBlur={field.handleBlur}
        aria-describedby={describedBy}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}
