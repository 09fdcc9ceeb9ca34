import { useEffect, useEffectEvent, useRef, useState } from "react";

/** "Refill day: A day of the month, 1 to 31": a control marked invalid, by its label and its problem's words. */
function problemOf(control: HTMLElement): string | undefined {
  const label = control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control.labels : null;
  const name = label?.[0]?.textContent?.trim();
  const words = (control.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id))
    .find((element) => element?.classList.contains("field__error"))
    ?.textContent?.trim();
  if (words === undefined) return undefined;
  return name === undefined ? words : `${name}: ${words}`;
}

/**
 * After a submit that found problems (each said beside its field): the focus goes to the first field that has one,
 * and `onSummary` gets a line for the form's end that names it, once React has drawn them. `formRef` goes on the form.
 */
export function useProblemFocus(onSummary: (summary: string) => void) {
  const formRef = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  const summarize = useEffectEvent(onSummary);
  useEffect(() => {
    if (attempt === 0) return;
    const invalid = [...(formRef.current?.querySelectorAll<HTMLElement>('[aria-invalid="true"]') ?? [])];
    invalid[0]?.focus();
    const first = (invalid[0] === undefined ? undefined : problemOf(invalid[0]))?.replace(/\.$/, "");
    const more = invalid.length > 1 ? ` (and ${invalid.length - 1} more above)` : "";
    summarize(
      first === undefined ? "Nothing was sent: a field above needs a fix." : `Nothing was sent. ${first}${more}.`,
    );
  }, [attempt]);
  return { formRef, focusFirstProblem: () => setAttempt((count) => count + 1) };
}
