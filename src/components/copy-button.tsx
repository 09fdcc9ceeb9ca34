import { useEffect, useState } from "react";
import "./copy-button.css";

export interface CopyButtonProps {
  value: string;
  /** The button's accessible name, e.g. "Copy request id". */
  label: string;
  /** The visible text, when "Copy" alone would not say what is copied. */
  text?: string;
  className?: string;
}

/** How long the "Copied" feedback stays. */
export const COPY_FEEDBACK_MS = 2000;

type Feedback = { kind: "idle" } | { kind: "copied" } | { kind: "failed" };

/**
 * Copies `value` to the clipboard and says, visibly and to screen readers, whether it worked.
 * The button keeps its name; the feedback sits next to it, so the name always matches what is seen.
 */
export function CopyButton({ value, label, text = "Copy", className }: CopyButtonProps) {
  const [feedback, setFeedback] = useState<Feedback>({ kind: "idle" });

  // Each copy sets a new object, so a second click restarts the timer.
  useEffect(() => {
    if (feedback.kind === "idle") return;
    const timer = setTimeout(() => setFeedback({ kind: "idle" }), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  async function copy() {
    try {
      // Absent outside secure contexts (plain http on another host).
      if (typeof navigator.clipboard?.writeText !== "function") throw new Error("no clipboard");
      await navigator.clipboard.writeText(value);
      setFeedback({ kind: "copied" });
    } catch {
      setFeedback({ kind: "failed" });
    }
  }

  return (
    <span className={className ? `copy-button ${className}` : "copy-button"}>
      <button
        type="button"
        className="button button--small copy-button__button"
        aria-label={label}
        onClick={() => void copy()}
      >
        {feedback.kind === "copied" ? <CheckIcon /> : <CopyIcon />}
        <span>{text}</span>
      </button>
      <span className={`copy-button__feedback copy-button__feedback--${feedback.kind}`} role="status">
        {feedback.kind === "copied" ? "Copied" : feedback.kind === "failed" ? "Copy failed — select and copy by hand" : ""}
      </span>
    </span>
  );
}

function CopyIcon() {
  return (
    <svg className="copy-button__icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M10.5 3.5v-.5A1.5 1.5 0 0 0 9 1.5H3A1.5 1.5 0 0 0 1.5 3v6A1.5 1.5 0 0 0 3 10.5h.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg className="copy-button__icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="M3 8.5l3.2 3L13 4.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
