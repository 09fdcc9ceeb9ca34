import { useStore } from "@tanstack/react-form";
import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import { useAppForm } from "@/components/form/app-form";
import { SafeName } from "@/components/safe-name";
import { deleteKey } from "@/lib/api/delete-key";
import type { Connection } from "@/lib/api/transport";
import { updateKey } from "@/lib/api/update-key";
import { NetworkError } from "@/lib/api-errors";
import type { Key } from "@/lib/contract";
import { formatCount, formatCountOf } from "@/lib/format-number";
import { useOnline } from "@/lib/hooks/use-online";
import { useSecondsUntil } from "@/lib/hooks/use-seconds-until";
import type { KeyCache } from "../key-cache";
import { learnAllowed, learnRefusal, type KeyAction } from "../refusals";
import { runBulk, type BulkProgress } from "../run-bulk";
import { ActionDialog } from "@/components/action-dialog";
import "./key-actions.css";

export type BulkAction = "disable" | "enable" | "delete";

const WORDS: Record<BulkAction, { verb: string; doing: string; done: string }> = {
  disable: { verb: "Disable", doing: "Disabling", done: "Disabled" },
  enable: { verb: "Enable", doing: "Enabling", done: "Enabled" },
  delete: { verb: "Delete", doing: "Deleting", done: "Deleted" },
};

const CONSEQUENCES: Record<BulkAction, (noun: string) => string> = {
  disable: (noun) => `The ${noun} will be refused (DISABLED) until enabled again.`,
  enable: (noun) => `The ${noun} will verify again, unless something else stops them (expiry, credits, limits).`,
  delete: (noun) => `The ${noun} will be refused at once (NOT_FOUND) and leave the list. This cannot be undone.`,
};

export interface BulkActionsProps {
  connection: Connection;
  /** The selected keys, as loaded (some may be hidden by the list's filters). */
  keys: readonly Key[];
  cache: KeyCache;
  /** What a failure is, in a line: the error catalog's words for it (composed by the app). */
  describeFailure: (error: unknown) => string;
}

interface Failure {
  key: Key;
  error: unknown;
}

type Phase =
  | { kind: "idle" }
  | { kind: "confirm"; action: BulkAction; keys: readonly Key[] }
  | { kind: "running"; action: BulkAction; keys: readonly Key[]; progress: BulkProgress; controller: AbortController }
  | {
      kind: "result";
      action: BulkAction;
      /** Every key changed since the confirmation, over all retries. */
      succeeded: readonly Key[];
      failed: readonly Failure[];
      /** Not tried: cancelled, or stopped when the connection was lost. */
      skipped: readonly Key[];
    };

/** The run stops starting new changes once one fails for want of a connection: the rest would fail the same way. */
const lostConnection = (error: unknown) => error instanceof NetworkError;

/** The permission each bulk action needs, as the per-API refusals store names it. */
const PERMISSION: Record<BulkAction, KeyAction> = { disable: "update_key", enable: "update_key", delete: "delete_key" };

/** One key's change; its refusal, or that it went through, is learnt as the key's page learns it. */
async function change(connection: Connection, action: BulkAction, keyId: string): Promise<void> {
  try {
    if (action === "delete") await deleteKey(connection, keyId);
    else await updateKey(connection, keyId, { enabled: action === "enable" });
  } catch (error) {
    learnRefusal(connection, PERMISSION[action], error, { keyId });
    throw error;
  }
  learnAllowed(connection, PERMISSION[action], { keyId });
}

/**
 * Disable, enable or delete the selected keys: one confirmation naming the count (typed, for a delete), a progress
 * that can be cancelled and waits out a 429's Retry-After, and a result that names each key not changed and why.
 * Retry repeats only those.
 */
export function BulkActions({ connection, keys, cache, describeFailure }: BulkActionsProps) {
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  // Deleted keys leave the list, and with it the selection that holds this component and its result: they are
  // removed when the result closes, or when this component goes anyway.
  const pendingDeletes = useRef<string[]>([]);
  const removeDeleted = () => {
    for (const keyId of pendingDeletes.current.splice(0)) cache.keyDeleted(keyId);
  };
  const removeDeletedOnUnmount = useEffectEvent(removeDeleted);
  useEffect(() => () => removeDeletedOnUnmount(), []);

  async function run(action: BulkAction, runKeys: readonly Key[], earlier: readonly Key[]) {
    const controller = new AbortController();
    setPhase({
      kind: "running",
      action,
      keys: runKeys,
      controller,
      progress: { done: 0, total: runKeys.length, waitingUntil: null },
    });
    const outcomes = await runBulk(
      runKeys,
      async (key) => {
        await change(connection, action, key.keyId);
        if (action === "delete") pendingDeletes.current.push(key.keyId);
        else cache.patchKey(key.keyId, { enabled: action === "enable" });
      },
      {
        signal: controller.signal,
        haltOn: lostConnection,
        onProgress: (progress) =>
          setPhase((current) => (current.kind === "running" ? { ...current, progress } : current)),
      },
    );
    const changed = outcomes.flatMap((outcome) => (outcome.status === "succeeded" ? [outcome.item] : []));
    setPhase({
      kind: "result",
      action,
      succeeded: [...earlier, ...changed],
      failed: outcomes.flatMap((outcome) =>
        outcome.status === "failed" ? [{ key: outcome.item, error: outcome.error }] : [],
      ),
      skipped: outcomes.flatMap((outcome) => (outcome.status === "skipped" ? [outcome.item] : [])),
    });
    // The other tabs are told what changed, so none reloads the keys one by one (a deleted key is told when it
    // leaves the list).
    if (action !== "delete" && changed.length > 0)
      cache.keysPatched(
        changed.map((key) => key.keyId),
        { enabled: action === "enable" },
      );
  }

  // The selection stays (Clear is beside it): clearing it would take the button focus returns to with it.
  function close() {
    setPhase({ kind: "idle" });
    removeDeleted();
  }

  return (
    <div className="bulk-actions" role="group" aria-label="Change the selected keys">
      {(["disable", "enable", "delete"] as const).map((action) => (
        <button
          key={action}
          type="button"
          className={action === "delete" ? "button button--small button--danger" : "button button--small"}
          disabled={keys.length === 0}
          onClick={() => setPhase({ kind: "confirm", action, keys })}
        >
          {WORDS[action].verb}
        </button>
      ))}
      {phase.kind === "confirm" && (
        <ConfirmDialog
          action={phase.action}
          count={phase.keys.length}
          onClose={close}
          onConfirm={() => void run(phase.action, phase.keys, [])}
        />
      )}
      {phase.kind === "running" && (
        <ActionDialog
          title={`${WORDS[phase.action].doing} ${formatCountOf(phase.keys.length, "key")}`}
          onClose={close}
          busy="Under way: Cancel stops it before the next key."
        >
          <RunProgress progress={phase.progress} cancelling={phase.controller.signal.aborted} />
          <div className="action-form__buttons">
            <button
              type="button"
              className="button"
              disabled={phase.controller.signal.aborted}
              onClick={(event) => {
                // Cancel takes the place of the confirmation's button: a double click's second click is not a cancel.
                if (event.detail > 1) return;
                phase.controller.abort();
                setPhase({ ...phase });
              }}
            >
              Cancel
            </button>
          </div>
        </ActionDialog>
      )}
      {phase.kind === "result" && (
        <ResultDialog
          phase={phase}
          describeFailure={describeFailure}
          onClose={close}
          onRetry={() =>
            void run(phase.action, [...phase.failed.map((failure) => failure.key), ...phase.skipped], phase.succeeded)
          }
        />
      )}
    </div>
  );
}

function ConfirmDialog({
  action,
  count,
  onClose,
  onConfirm,
}: {
  action: BulkAction;
  count: number;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const online = useOnline();
  const phrase = `delete ${count} keys`;
  // Deleting many is confirmed by typing the count: one click too many cannot delete them.
  const isConfirmed = (typed: string) =>
    action !== "delete" || [String(count), phrase].includes(typed.trim().toLowerCase());
  const form = useAppForm({
    defaultValues: { typed: "" },
    onSubmit: ({ value }) => {
      if (isConfirmed(value.typed) && online) onConfirm();
    },
  });
  const confirmed = useStore(form.store, (state) => isConfirmed(state.values.typed));
  const noun = formatCountOf(count, "key");
  return (
    <ActionDialog title={`${WORDS[action].verb} ${noun}?`} onClose={onClose}>
      <form
        className="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
      >
        <p>{CONSEQUENCES[action](noun)}</p>
        {action === "delete" && (
          <form.AppField name="typed">
            {(field) => (
              <field.TextField
                label={
                  <>
                    Type <strong>{count}</strong> or <strong>{phrase}</strong> to confirm
                  </>
                }
                spellCheck={false}
              />
            )}
          </form.AppField>
        )}
        {!online && <OfflineNote />}
        <div className="action-form__buttons">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className={action === "delete" ? "button button--danger" : "button button--primary"}
            disabled={!confirmed || !online}
          >
            {WORDS[action].verb} {noun}
          </button>
        </div>
      </form>
    </ActionDialog>
  );
}

function OfflineNote() {
  return (
    <p className="bulk-actions__offline" role="status">
      You are offline: nothing can be changed until the connection is back.
    </p>
  );
}

function RunProgress({ progress, cancelling }: { progress: BulkProgress; cancelling: boolean }) {
  const waitSeconds = useSecondsUntil(progress.waitingUntil) ?? 0;
  return (
    <div className="bulk-actions__progress">
      <progress max={progress.total} value={progress.done} aria-label="Keys done so far" />
      <p role="status">
        {formatCount(progress.done)} of {formatCount(progress.total)} done
        {waitSeconds > 0 && ` · rate limited: the API asked to wait, going on in about ${waitSeconds} s`}
        {cancelling && " · cancelling: the changes under way finish, no new one starts"}
      </p>
    </div>
  );
}

interface ResultDialogProps {
  phase: Extract<Phase, { kind: "result" }>;
  describeFailure: (error: unknown) => string;
  onClose: () => void;
  onRetry: () => void;
}

function ResultDialog({ phase, describeFailure, onClose, onRetry }: ResultDialogProps) {
  const { action, succeeded, failed, skipped } = phase;
  const online = useOnline();
  const total = succeeded.length + failed.length + skipped.length;
  const words = WORDS[action];
  const notChanged = failed.length + skipped.length;
  const stoppedBy = failed.find((failure) => lostConnection(failure.error));
  return (
    <ActionDialog
      title={
        notChanged === 0
          ? `${words.done} ${formatCountOf(total, "key")}`
          : `${words.done} ${formatCount(succeeded.length)} of ${formatCountOf(total, "key")}`
      }
      onClose={onClose}
    >
      <p role="status" className="bulk-actions__summary">
        {formatCount(succeeded.length)} succeeded
        {failed.length > 0 && `, ${formatCount(failed.length)} failed`}
        {skipped.length > 0 &&
          `, ${formatCount(skipped.length)} not tried (${stoppedBy === undefined ? "cancelled" : "stopped"})`}
        .
        {stoppedBy !== undefined &&
          skipped.length > 0 &&
          ` Stopped at the first lost connection: ${describeFailure(stoppedBy.error)}.`}
      </p>
      {failed.length > 0 && (
        <KeyList
          label="Failed"
          keys={failed.map((failure) => failure.key)}
          reasons={new Map(failed.map(({ key, error }) => [key.keyId, describeFailure(error)]))}
        />
      )}
      {skipped.length > 0 && <KeyList label="Not tried" keys={skipped} />}
      {succeeded.length > 0 && (
        <details className="bulk-actions__details">
          <summary>{`${words.done} (${formatCount(succeeded.length)})`}</summary>
          <KeyList label={words.done} keys={succeeded} headed={false} />
        </details>
      )}
      {notChanged > 0 && !online && <OfflineNote />}
      <div className="action-form__buttons">
        {notChanged > 0 && (
          <button type="button" className="button button--primary" disabled={!online} onClick={onRetry}>
            {failed.length > 0
              ? `Retry the ${formatCount(notChanged)} not changed`
              : `Run the ${formatCount(notChanged)} not tried`}
          </button>
        )}
        <button type="button" className="button" onClick={onClose}>
          Done
        </button>
      </div>
    </ActionDialog>
  );
}

/** `reasons`: why each key failed, by id. A visible heading names the list (the succeeded one's is its summary). */
function KeyList({
  label,
  keys,
  reasons,
  headed = true,
}: {
  label: string;
  keys: readonly Key[];
  reasons?: ReadonlyMap<string, string>;
  headed?: boolean;
}) {
  const headingId = useId();
  return (
    <>
      {headed && (
        <h3 id={headingId} className="bulk-actions__heading">
          {label}
        </h3>
      )}
      <ul
        className="bulk-actions__list"
        aria-labelledby={headed ? headingId : undefined}
        aria-label={headed ? undefined : label}
      >
        {keys.map((key) => (
          <li key={key.keyId}>
            <KeyName keyData={key} />
            {reasons?.has(key.keyId) === true && `: ${reasons.get(key.keyId) ?? ""}`}
          </li>
        ))}
      </ul>
    </>
  );
}

function KeyName({ keyData }: { keyData: Key }) {
  return (
    <>
      {keyData.name !== undefined && keyData.name.trim() !== "" && (
        <>
          <SafeName>{keyData.name}</SafeName>{" "}
        </>
      )}
      <code>{keyData.keyId}</code>
    </>
  );
}
