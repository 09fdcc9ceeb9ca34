import type { ReactNode } from "react";
import { useOnline } from "../../lib/hooks/use-online";
import "../action-dialog.css";

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

/** What a form says while the browser is offline: at once, not once a request sent meanwhile has failed. */
export const OFFLINE_NOTE = "You are offline: nothing can be changed until the connection is back.";

/**
 * The end of every key-changing form: what stops it (offline, said the moment the browser is), the request's failure,
 * and the submit button.
 */
export function FormEnd({
  problem = null,
  error,
  pending,
  label,
  pendingLabel,
  disabled = false,
  danger = false,
}: FormEndProps) {
  const online = useOnline();
  return (
    <>
      {problem !== null && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
      {error}
      {!online && (
        <p className="action-form__offline" role="status">
          {OFFLINE_NOTE}
        </p>
      )}
      <div className="action-form__buttons">
        <button
          type="submit"
          className={danger ? "button button--danger" : "button button--primary"}
          disabled={disabled || pending || !online}
        >
          {pending ? pendingLabel : label}
        </button>
      </div>
    </>
  );
}
