import { CopyButton } from "@/components/copy-button";
import { formatCount } from "@/lib/format-number";
import type { KeyIdLookup } from "../hooks/use-key-id-lookup";
import type { ReactNode } from "react";

const CREATE_KEY_COMMAND = 'npm run admin -- keys create --name "Checkout service"';

/** A workspace without keys: how to create one. `children` is the way to refresh afterwards. */
export function NoKeysYet({ children }: { children: ReactNode }) {
  return (
    <div className="keys-empty">
      <h2>No keys yet</h2>
      <p>This workspace has no keys. Create one with the admin CLI, then refresh:</p>
      <div className="keys-empty__command">
        <code>{CREATE_KEY_COMMAND}</code>
        <CopyButton value={CREATE_KEY_COMMAND} label="Copy command" />
      </div>
      {children}
    </div>
  );
}

interface NoMatchingKeysProps {
  /** The text filter ("" when only the status filter narrows). */
  query: string;
  lookup: KeyIdLookup;
  loaded: number;
  hasMore: boolean;
  onClear: () => void;
}

/** Neither the loaded keys nor a key-id lookup match the filters. */
export function NoMatchingKeys({ query, lookup, loaded, hasMore, onClear }: NoMatchingKeysProps) {
  return (
    <div className="keys-empty keys-empty--inline">
      <h2>{query !== "" ? `No keys match “${query}”` : "No key has the chosen status"}</h2>
      <p>
        {lookup.notFound
          ? `The API has no key with the id ${lookup.keyId}.`
          : lookup.pending
            ? `Asking the API for ${lookup.keyId}…`
            : hasMore
              ? `Among the ${formatCount(loaded)} keys loaded so far, none matches. More keys are not loaded yet.`
              : `None of the ${formatCount(loaded)} keys matches.`}
      </p>
      <button type="button" className="button" onClick={onClear}>
        Clear filter
      </button>
    </div>
  );
}
