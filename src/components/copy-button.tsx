import { createContext, Fragment, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import "./copy-button.css";

export interface CopyButtonProps {
  value: string;
  /** The button's accessible name, e.g. "Copy request id". */
  label: string;
  /** The visible text, when "Copy" alone would not say what is copied. */
  text?: string;
  /** Inside a `CopyFeedbackGroup`: what the group's announcement names, e.g. "key id key_2Xa9". */
  subject?: string;
  className?: string;
}

/** How long the "Copied" feedback stays. */
export const COPY_FEEDBACK_MS = 2000;

type Outcome = "copied" | "failed";

const FEEDBACK_TEXT: Record<Outcome, string> = { copied: "Copied", failed: "Copy failed — select and copy by hand" };

async function writeToClipboard(value: string): Promise<Outcome> {
  try {
    // Absent outside secure contexts (plain http on another host).
    if (typeof navigator.clipboard?.writeText !== "function") throw new Error("no clipboard");
    await navigator.clipboard.writeText(value);
    return "copied";
  } catch {
    return "failed";
  }
}

/** The last copy in a group: which value, how it went, and a count that makes a repeat a new announcement. */
interface GroupCopy {
  value: string;
  outcome: Outcome;
  announcement: string;
  count: number;
}

interface CopyGroup {
  last: GroupCopy | null;
  copy: (value: string, subject: string | undefined) => Promise<void>;
}

const CopyGroupContext = createContext<CopyGroup | null>(null);

/**
 * Many copy buttons (a table's rows) sharing one polite live region and one feedback timer: a copy is announced
 * once, naming what was copied, instead of each button keeping a region, a state and a timer of its own.
 */
export function CopyFeedbackGroup({ children }: { children: ReactNode }) {
  const [last, setLast] = useState<GroupCopy | null>(null);

  // Each copy sets a new object, so a second click restarts the timer.
  useEffect(() => {
    if (last === null) return;
    const timer = setTimeout(() => setLast(null), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [last]);

  const copy = useCallback(async (value: string, subject: string | undefined) => {
    const outcome = await writeToClipboard(value);
    const named =
      subject === undefined
        ? FEEDBACK_TEXT[outcome]
        : outcome === "copied"
          ? `Copied ${subject}`
          : `Could not copy ${subject} — select and copy by hand`;
    setLast((previous) => ({ value, outcome, announcement: named, count: (previous?.count ?? 0) + 1 }));
  }, []);
  const group = useMemo(() => ({ last, copy }), [last, copy]);

  return (
    <CopyGroupContext value={group}>
      {children}
      <span className="visually-hidden" role="status">
        {/* A new text node per copy: the same words twice are announced twice. */}
        {last !== null && <Fragment key={last.count}>{last.announcement}</Fragment>}
      </span>
    </CopyGroupContext>
  );
}

/**
 * Copies `value` to the clipboard and says, visibly and to screen readers, whether it worked.
 * The button keeps its name; the feedback sits next to it, so the name always matches what is seen.
 * Inside a `CopyFeedbackGroup` the group holds the feedback and announces it; alone, the button does.
 */
export function CopyButton(props: CopyButtonProps) {
  const group = useContext(CopyGroupContext);
  if (group === null) return <OwnCopyButton {...props} />;
  const outcome = group.last?.value === props.value ? group.last.outcome : undefined;
  // The feedback is visible only: the group's region says it, once.
  return copyButtonMarkup(props, outcome, false, () => void group.copy(props.value, props.subject));
}

function OwnCopyButton(props: CopyButtonProps) {
  const [feedback, setFeedback] = useState<{ outcome: Outcome } | null>(null);

  // Each copy sets a new object, so a second click restarts the timer.
  useEffect(() => {
    if (feedback === null) return;
    const timer = setTimeout(() => setFeedback(null), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  return copyButtonMarkup(
    props,
    feedback?.outcome,
    true,
    () => void writeToClipboard(props.value).then((outcome) => setFeedback({ outcome })),
  );
}

/** The button, its icon (drawn by its stylesheet) and the feedback beside it. */
function copyButtonMarkup(
  { label, text = "Copy", className }: CopyButtonProps,
  outcome: Outcome | undefined,
  announces: boolean,
  onClick: () => void,
) {
  return (
    <span className={className ? `copy-button ${className}` : "copy-button"}>
      <button
        type="button"
        className={
          outcome === "copied"
            ? "button button--small copy-button__button copy-button__button--copied"
            : "button button--small copy-button__button"
        }
        aria-label={label}
        onClick={onClick}
      >
        {text !== "" && <span>{text}</span>}
      </button>
      <span
        className={`copy-button__feedback copy-button__feedback--${outcome ?? "idle"}`}
        role={announces ? "status" : undefined}
      >
        {outcome === undefined ? "" : FEEDBACK_TEXT[outcome]}
      </span>
    </span>
  );
}
