import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from "react";
import "./action-dialog.css";

/**
 * What the dialog of a change says while it cannot be closed: its answer has nowhere else to go (a
 * refusal, said in the form; a deleted thing, whose page is then left).
 */
export const ANSWER_ON_ITS_WAY =
  "Waiting for the service’s answer: this stays open until it comes, so that what it says is shown here.";

export interface ActionDialogProps {
  title: string;
  /** Called when the dialog closes: Escape, the Close button, or the caller's own action. */
  onClose: () => void;
  /**
   * Why the dialog cannot close now, if it cannot: a request whose answer only this dialog can show (a new
   * secret, shown once; a refusal of what its form sent; a deleted key, whose page it leaves) is under way. Escape and Close do nothing meanwhile, and this is said beside Close.
   */
  busy?: string | undefined;
  children: ReactNode;
}

/**
 * A modal on the native `<dialog>`: `showModal` traps focus, makes the page behind it inert and closes on Escape;
 * focus goes back to what opened it when it closes. Mounted while open: unmounting drops everything it held.
 */
export function ActionDialog({ title, onClose, busy, children }: ActionDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const busyId = useId();
  // Said once, and as soon as the dialog closes: the `close` event comes a task later, and an Enter on the opener in
  // between would otherwise open it again only for that event to close it (a keyboard user's Escape, then Enter).
  const told = useRef(false);
  const tell = () => {
    if (told.current) return;
    told.current = true;
    onClose();
  };
  const closed = useEffectEvent(() => tell());
  // Both the keydown and the cancel: a browser may fire a `cancel` that cannot be prevented (a second Escape with
  // no click between), but sends none for an Escape whose keydown was prevented. On the document, since focus
  // leaves the dialog when the button that sent the request is disabled.
  const escaped = useEffectEvent((event: KeyboardEvent) => {
    if (busy !== undefined && event.key === "Escape") event.preventDefault();
  });

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const onClosed = () => closed();
    const onKeyDown = (event: KeyboardEvent) => escaped(event);
    dialog.addEventListener("close", onClosed);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      dialog.removeEventListener("close", onClosed);
      document.removeEventListener("keydown", onKeyDown);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="action-dialog"
      aria-labelledby={titleId}
      aria-busy={busy !== undefined}
      onCancel={(event) => {
        if (busy !== undefined) event.preventDefault();
        else tell();
      }}
    >
      <div className="action-dialog__header">
        <h2 id={titleId} className="action-dialog__title">
          {title}
        </h2>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => {
            ref.current?.close();
            tell();
          }}
          disabled={busy !== undefined}
          aria-describedby={busy === undefined ? undefined : busyId}
        >
          Close
        </button>
      </div>
      {busy !== undefined && (
        <p id={busyId} className="action-dialog__busy" role="status">
          {busy}
        </p>
      )}
      <div className="action-dialog__body">{children}</div>
    </dialog>
  );
}
