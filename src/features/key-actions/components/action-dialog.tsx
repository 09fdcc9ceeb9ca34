import { useEffect, useEffectEvent, useId, useRef, type ReactNode, type SyntheticEvent } from "react";
import "./key-actions.css";

export interface ActionDialogProps {
  title: string;
  /** Called when the dialog closes: Escape, the Close button, or the caller's own action. */
  onClose: () => void;
  /**
   * Why the dialog cannot close now, if it cannot: a request whose answer only this dialog can show (a new
   * secret, shown once) is under way. Escape and Close do nothing meanwhile, and this is said beside Close.
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
  const closed = useEffectEvent(() => onClose());

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const onClosed = () => closed();
    dialog.addEventListener("close", onClosed);
    return () => {
      dialog.removeEventListener("close", onClosed);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  // Both: a browser may fire a `cancel` that cannot be prevented (a second Escape with no click between), but it
  // sends none when the Escape keydown itself was prevented.
  const holdOpen = (event: SyntheticEvent) => {
    if (busy !== undefined) event.preventDefault();
  };

  return (
    <dialog
      ref={ref}
      className="action-dialog"
      aria-labelledby={titleId}
      aria-busy={busy !== undefined}
      onCancel={holdOpen}
      onKeyDown={(event) => {
        if (event.key === "Escape") holdOpen(event);
      }}
    >
      <div className="action-dialog__header">
        <h2 id={titleId} className="action-dialog__title">
          {title}
        </h2>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => ref.current?.close()}
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
