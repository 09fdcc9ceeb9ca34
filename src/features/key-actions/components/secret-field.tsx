import { useId } from "react";
import { CopyButton } from "@/components/copy-button";

/**
 * A new key's secret, shown this once: read-only, labelled "Secret", with Copy and a plain warning. It lives only in
 * the state of the dialog that shows it; closing the dialog lets go of it.
 */
export function SecretField({ secret, keyId }: { secret: string; keyId: string }) {
  const id = useId();
  const warningId = useId();
  return (
    <div className="secret-field">
      <p id={warningId} className="field__warning" role="alert">
        Copy this secret now: it will not be shown again. Keyscope does not keep it, and the service stores only its
        hash.
      </p>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Secret
        </label>
        <div className="secret-field__row">
          <input
            id={id}
            className="input input--mono"
            readOnly
            value={secret}
            aria-describedby={warningId}
            autoComplete="off"
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton value={secret} label="Copy secret" />
        </div>
      </div>
      <p className="field__note">
        Key id <code>{keyId}</code>
      </p>
    </div>
  );
}
