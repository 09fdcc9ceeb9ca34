import { CopyButton } from "@/components/copy-button";
import { SafeName } from "@/components/safe-name";
import { formatCount } from "@/lib/format-number";
import { createRootKeyCommand, READ_ANALYTICS_PERMISSION, READ_KEYS_PERMISSION } from "@/lib/contract";
import { formatUtcTime } from "@/lib/format-time";

const ANALYTICS_ROOT_KEY_COMMAND = createRootKeyCommand({
  name: "keyscope",
  permissions: [READ_KEYS_PERMISSION, READ_ANALYTICS_PERMISSION],
});

interface OfflineNoticeProps {
  /** When the keys shown were loaded (ms since the epoch). */
  loadedAt: number;
  refreshQueued: boolean;
}

export function OfflineNotice({ loadedAt, refreshQueued }: OfflineNoticeProps) {
  return (
    <p className="keys-notice keys-notice--offline" role="status">
      <strong>You are offline.</strong> The keys below were loaded at {formatUtcTime(loadedAt)} and may have changed
      since.{" "}
      {refreshQueued
        ? "Keyscope will refresh them as soon as the connection is back."
        : "They refresh when the connection is back."}
    </p>
  );
}

/** The root key may list keys but not read analytics: what to give it. */
export function UsageForbiddenNotice() {
  return (
    <div className="keys-notice keys-notice--warn" role="note" aria-label="Usage not shown">
      <p>
        <strong>Usage is not shown:</strong> this root key may list keys but not read analytics. Give it the permission{" "}
        <code>{READ_ANALYTICS_PERMISSION}</code>, or use a root key that has it. On the reference server:
      </p>
      <code>{ANALYTICS_ROOT_KEY_COMMAND}</code>
      <CopyButton value={ANALYTICS_ROOT_KEY_COMMAND} label="Copy the command" />
    </div>
  );
}

export function UsageErrorNotice({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <p className="keys-notice keys-notice--warn" role="note">
      <strong>Usage could not be loaded:</strong> {message}{" "}
      <button type="button" className="button button--small" onClick={onRetry}>
        Try again
      </button>
    </p>
  );
}

/** The key typed in the filter came from keys.getKey, not from the loaded pages. */
export function FoundByIdNotice({ loaded }: { loaded: number }) {
  return (
    <p className="keys-notice" role="status">
      Found with <code>keys.getKey</code>: this key is not among the {formatCount(loaded)} keys loaded.
    </p>
  );
}

/** The filter's text, asked of the server as an external id: the identity's keys that are not among those loaded. */
export function FoundByIdentityNotice({
  externalId,
  found,
  added,
  hasMore,
  error,
}: {
  externalId: string;
  found: number;
  added: number;
  hasMore: boolean;
  error: Error | null;
}) {
  if (error !== null) {
    return (
      <p className="keys-notice keys-notice--warn" role="status">
        The server could not be asked for the keys of the external id “<SafeName>{externalId}</SafeName>” (
        {error.message}): only the loaded keys are matched.
      </p>
    );
  }
  return (
    <p className="keys-notice" role="status">
      Found with <code>apis.listKeys</code>: {formatCount(found)} {found === 1 ? "key" : "keys"} of the external id “
      <SafeName>{externalId}</SafeName>”, {formatCount(added)} of {added === 1 ? "it" : "them"} not among the loaded
      keys{hasMore ? " (the first 100 of its keys: type a key's name or id to find another)" : ""}.
    </p>
  );
}
