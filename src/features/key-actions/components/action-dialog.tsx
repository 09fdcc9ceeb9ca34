import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from "react";
import "./key-actions.css";

export interface ActionDialogProps {
  title: string;
  /** Called when the dialog closes: Escape, the Close button, or the caller's own action. */
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal on the native `<dialog>`: `showModal` traps focus, makes the page behind it inert and closes on Escape;
 * focus goes back to what opened it when it closes. Mounted while open: unmounting drops everything it held.
 */
export function ActionDialog({ title, onClose, children }: ActionDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
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

  return (
    <dialog ref={ref} className="action-dialog" aria-labelledby={titleId}>
      <div className="action-dialog__header">
        <h2 id={titleId} className="action-dialog__title">
          {title}
        </h2>
        <button type="button" className="button button--ghost button--small" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
      <div className="action-dialog__body">{children}</div>
    </dialog>
  );
}
