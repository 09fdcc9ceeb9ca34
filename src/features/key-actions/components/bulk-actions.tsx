import { useState } from "react";
import { deleteKey } from "../../../lib/api/delete-key";
import type { Connection } from "../../../lib/api/transport";
import { updateKey } from "../../../lib/api/update-key";
import { ApiError, toKeyscopeError } from "../../../lib/api-errors";
import type { Key } from "../../../lib/contract";
import { formatCount } from "../../../lib/format-number";
import type { KeyCache } from "../key-cache";
import { ActionDialog } from "./action-dialog";

type BulkAction = "disable" | "enable" | "delete";

const WORDS: Record<BulkAction, { verb: string; doing: string; done: string }> = {
  disable: { verb: "Disable", doing: "Disabling", done: "disabled" },
  enable: { verb: "Enable", doing: "Enabling", done: "enabled" },
  delete: { verb: "Delete", doing: "Deleting", done: "deleted" },
};

/** At most this many changes in flight: quick for 50 keys, gentle on a root key's rate limit. */
const IN_FLIGHT = 4;

export interface BulkActionsProps {
  connection: Connection;
  keys: readonly Key[];
  cache: KeyCache;
  clearSelection: () => void;
}

interface Run {
  action: BulkAction;
  keys: readonly Key[];
  phase: "confirm" | "running" | "done";
  done: number;
  failures: { key: Key; reason: string }[];
  succeeded: number;
}

function nameOf(key: Key): string {
  return key.name !== undefined && key.name.trim() !== "" ? `${key.name} (${key.keyId})` : key.keyId;
}

function reasonOf(error: unknown): string {
  if (error instanceof ApiError) return `${error.status} ${error.title}: ${error.detail}`;
  return toKeyscopeError(error).message;
}

/**
 * Disable, enable or delete the selected keys: one confirmation naming the count, a progress bar, and a result that
 * names each key that failed and why. Retry repeats only the failed ones.
 */
export function BulkActions({ connection, keys, cache, clearSelection }: BulkActionsProps) {
  const [run, setRun] = useState<Run | null>(null);

  async function start(action: BulkAction, targets: readonly Key[]) {
    setRun({ action, keys: targets, phase: "running", done: 0, failures: [], succeeded: 0 });
    const queue = [...targets];
    const failures: Run["failures"] = [];
    let succeeded = 0;
    const worker = async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        try {
          if (action === "delete") {
            await deleteKey(connection, key.keyId);
            cache.keyDeleted(key.keyId);
          } else {
            await updateKey(connection, key.keyId, { enabled: action === "enable" });
            cache.patchKey(key.keyId, { enabled: action === "enable" });
          }
          succeeded += 1;
        } catch (error) {
          // Not remembered as the root key's refusal: it may hold the permission for some APIs and not others.
          failures.push({ key, reason: reasonOf(error) });
        }
        const progress = { done: succeeded + failures.length, succeeded, failures: [...failures] };
        setRun((current) => (current === null ? current : { ...current, ...progress }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, targets.length) }, worker));
    setRun((current) => (current === null ? current : { ...current, phase: "done" }));
  }

  function close() {
    if (run?.phase === "done" && run.failures.length === 0) clearSelection();
    setRun(null);
  }

  const count = formatCount(keys.length);
  return (
    <div className="bulk-actions" role="group" aria-label="Selected keys">
      <span>
        {count} {keys.length === 1 ? "key" : "keys"} selected
      </span>
      {(["disable", "enable", "delete"] as const).map((action) => (
        <button
          key={action}
          type="button"
          className={action === "delete" ? "button button--small button--danger" : "button button--small"}
          onClick={() => setRun({ action, keys, phase: "confirm", done: 0, failures: [], succeeded: 0 })}
        >
          {WORDS[action].verb}
        </button>
      ))}
      <button type="button" className="button button--small button--ghost" onClick={clearSelection}>
        Clear selection
      </button>
      {run !== null && <BulkDialog run={run} onStart={() => void start(run.action, run.keys)} onRetry={(failed) => void start(run.action, failed)} onClose={close} />}
    </div>
  );
}

function BulkDialog({ run, onStart, onRetry, onClose }: { run: Run; onStart: () => void; onRetry: (failed: Key[]) => void; onClose: () => void }) {
  const words = WORDS[run.action];
  const total = formatCount(run.keys.length);
  const noun = run.keys.length === 1 ? "key" : "keys";
  return (
    <ActionDialog title={`${words.verb} ${total} ${noun}`} onClose={onClose}>
      {run.phase === "confirm" && (
        <>
          <p>
            {words.verb} {total} {noun}?{run.action === "delete" && " Every request with them is refused from now on; this cannot be undone."}
          </p>
          <div className="action-form__buttons">
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className={run.action === "delete" ? "button button--danger" : "button button--primary"} onClick={onStart}>
              {words.verb} {total} {noun}
            </button>
          </div>
        </>
      )}
      {run.phase !== "confirm" && (
        <div className="bulk-actions__progress">
          <label>
            {run.phase === "running" ? `${words.doing}: ` : "Done: "}
            {formatCount(run.done)} of {total}
            <progress max={run.keys.length} value={run.done} />
          </label>
        </div>
      )}
      {run.phase === "done" && (
        <div role="status">
          <p>
            <strong>
              {formatCount(run.succeeded)} {words.done}
            </strong>
            {run.failures.length > 0 && (
              <>
                , <strong>{formatCount(run.failures.length)} failed</strong> and {run.failures.length === 1 ? "was" : "were"} left as before:
              </>
            )}
          </p>
          {run.failures.length > 0 && (
            <ul className="bulk-actions__failures">
              {run.failures.map(({ key, reason }) => (
                <li key={key.keyId}>
                  <code>{nameOf(key)}</code>: {reason}
                </li>
              ))}
            </ul>
          )}
          <div className="action-form__buttons">
            {run.failures.length > 0 && (
              <button type="button" className="button" onClick={() => onRetry(run.failures.map((failure) => failure.key))}>
                Retry the {formatCount(run.failures.length)} failed
              </button>
            )}
            <button type="button" className="button button--primary" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      )}
    </ActionDialog>
  );
}
