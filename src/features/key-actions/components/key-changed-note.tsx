import type { Key } from "@/lib/contract";
import { describeChange, listed, type KeyField } from "../changed-under";

/**
 * Said at the top of a form when the key changed under it (another tab, another client): what changed, that the form
 * still shows it as it was, and a button to take the new values. Saving never overwrites those fields unasked.
 */
export function KeyChangedNote({
  changed,
  now,
  onTake,
}: {
  changed: readonly KeyField[];
  now: Key;
  onTake: () => void;
}) {
  return (
    <div className="key-changed-note" role="alert">
      <p>
        This key changed since this form opened (in another tab, or by someone else):{" "}
        {listed(changed.map((field) => describeChange(field, now)))}. The form still shows what it was.
      </p>
      <button type="button" className="button button--small" onClick={onTake}>
        Take the new values
      </button>
    </div>
  );
}
