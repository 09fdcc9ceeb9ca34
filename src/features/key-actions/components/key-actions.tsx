import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { flushSync } from "react-dom";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import type { RateLimit } from "@/lib/key-facts";
import { appliedRateLimits } from "@/lib/key-limits";
import { keyRefusal, type Fix } from "@/lib/key-refusal";
import type { AnalyticsOutcome } from "@/lib/verification-outcomes";
import { useUpdateKey } from "../api/use-key-mutations";
import { probeAccess, probeAddPermission, probeReroll, probeUpdate, type ProbeAnswer } from "../api/probes";
import type { KeyCache } from "../key-cache";
import { isPermissionRefusal } from "@/lib/access-probe";
import { forgetRefusal, learnKeysApi, useRefusal, type KeyAction } from "../refusals";
import { CreditsDialog, type CreditsMode } from "./credits-dialog";
import { DeleteDialog } from "./delete-dialog";
import { EditDialog } from "./edit-dialog";
import { AccessDialog } from "./access-dialog";
import { RefusalNote } from "./refusal-note";
import type { RenderError } from "./render-error";
import { RerollDialog } from "./reroll-dialog";
import "./key-actions.css";

const DAY = 24 * 60 * 60 * 1000;

export interface KeyActionsProps {
  connection: Connection;
  apiKey: Key;
  cache: KeyCache;
  now: number;
  /** The refusal most of the key's recent verifications got, when there is one. */
  refusedAs: AnalyticsOutcome | null;
  renderError: RenderError;
  keyHref: (keyId: string) => string;
  onDeleted: () => void;
  /** The API of a loaded list that shows this key, when one does: else the key's API is unknown until a refusal names it. */
  listedIn?: string | undefined;
}

type Open =
  | { dialog: "edit"; extendTo?: number; raise?: RateLimit }
  | { dialog: "credits"; mode?: CreditsMode; value?: number }
  | { dialog: "reroll"; permission?: ProbeAnswer }
  | { dialog: "delete" }
  | { dialog: "access"; refused?: boolean; permission?: ProbeAnswer }
  | null;

/** A button of the key actions the focus is moved to. */
type ActionButton = "enable" | "disable" | "edit" | "credits" | "access" | "reroll" | "delete";

/**
 * Each dialog's button in Key actions, and the permission its action needs, whose refusal disables the buttons that
 * open it (a verdict's fix, such as Add credits, opens the same dialog).
 */
const DIALOGS: Record<NonNullable<Open>["dialog"], { button: ActionButton; action: KeyAction }> = {
  edit: { button: "edit", action: "update_key" },
  credits: { button: "credits", action: "update_key" },
  access: { button: "access", action: "update_key" },
  reroll: { button: "reroll", action: "create_key" },
  delete: { button: "delete", action: "delete_key" },
};

/** The button a refusal of each action holds back, which Check again gives back. */
const HELD_BACK: Record<KeyAction, ActionButton> = {
  update_key: "edit",
  create_key: "reroll",
  delete_key: "delete",
  add_permission_to_key: "access",
  remove_permission_from_key: "access",
  add_role_to_key: "access",
};

/** Whether the focus is still somewhere a keyboard user can go on from (not fallen to the page's start). */
function focusKept(): boolean {
  const at = document.activeElement;
  return at !== null && at !== document.body && at.isConnected && !(at instanceof HTMLButtonElement && at.disabled);
}

/** A ref callback that keeps `element` in `elements` under `name` while it is mounted. */
function keptAs<T>(elements: Map<T, HTMLButtonElement>, name: T) {
  return (element: HTMLButtonElement | null) => {
    if (element === null) return;
    elements.set(name, element);
    return () => void elements.delete(name);
  };
}

/**
 * What a key's page lets one do to the key: the verdict's fix first (Enable, Add credits, Extend…), then every
 * action. An action the root key may not take says which permission it needs before any form opens.
 */
export function KeyActions(props: KeyActionsProps) {
  const { connection, apiKey, cache, now, refusedAs, renderError, listedIn } = props;
  const [open, setOpen] = useState<Open>(null);
  // Before the first paint: what is known of the list's API then shows for this key at once.
  useLayoutEffect(() => {
    if (listedIn !== undefined) learnKeysApi(connection, [apiKey.keyId], listedIn);
  }, [connection, apiKey.keyId, listedIn]);
  const [checking, setChecking] = useState(false);
  // The buttons a refusal disables, and each refusal note's Check again, by action: where the focus goes on to.
  const [actionButtons] = useState(() => new Map<ActionButton, HTMLButtonElement>());
  const [checkAgainButtons] = useState(() => new Map<KeyAction, HTMLButtonElement>());
  const closedDialog = useRef<NonNullable<Open>["dialog"] | null>(null);
  // A dialog gives the focus back to the button that opened it. When that button is gone or disabled, the focus
  // would fall to the page's start: it goes on to the note of a refusal learnt meanwhile, which says why, else to
  // the dialog's own button in Key actions (a fix, such as Add credits, goes once its change is made).
  useEffect(() => {
    const closed = closedDialog.current;
    if (open !== null || closed === null) return;
    closedDialog.current = null;
    if (focusKept()) return;
    const { action, button } = DIALOGS[closed];
    const next = checkAgainButtons.get(action) ?? actionButtons.get(button);
    if (next !== undefined && !next.disabled) next.focus();
  }, [open, checkAgainButtons, actionButtons]);
  // Disable, Enable and Remove expiry each remove their own button once they show as made: the focus goes on to the
  // button that comes next (once the service has answered, as it is disabled till then), unless it moved meanwhile.
  const moveFocus = useRef<{ from: Element; to: ActionButton } | null>(null);
  useEffect(() => {
    const move = moveFocus.current;
    if (move === null || move.from.isConnected) return;
    if (focusKept()) {
      moveFocus.current = null;
      return;
    }
    const to = actionButtons.get(move.to);
    if (to === undefined || to.disabled) return;
    moveFocus.current = null;
    to.focus();
  });
  const target = { keyId: apiKey.keyId };
  const updateRefusal = useRefusal(connection, "update_key", target);
  const deleteRefusal = useRefusal(connection, "delete_key", target);
  const createRefusal = useRefusal(connection, "create_key", target);
  const addPermissionRefusal = useRefusal(connection, "add_permission_to_key", target);
  const toggle = useUpdateKey(connection, cache);
  const enabled = apiKey.enabled !== false;
  // The verdict's fixes, decided with the page's sentence and the keys table's statuses (lib/key-refusal.ts).
  const { fixes: verdictFixes } = keyRefusal(apiKey, now, refusedAs);

  // Enable, Disable or Remove expiry refused for want of update_key: the note above the buttons says so, once (no
  // panel of the same refusal below them), and the focus, whose button the refusal disabled, goes on to its Check again.
  const toggleRefused = toggle.isError && updateRefusal !== undefined && isPermissionRefusal(toggle.error);
  useEffect(() => {
    if (toggleRefused && !focusKept()) checkAgainButtons.get("update_key")?.focus();
  }, [toggleRefused, checkAgainButtons]);

  // One change of these at a time (the mutation ignores another meanwhile): the buttons that send it wait for it.
  const setEnabled = (value: boolean, from: Element) => {
    moveFocus.current = { from, to: value ? "disable" : "enable" };
    toggle.mutate({ keyId: apiKey.keyId, changes: { enabled: value }, optimistic: { enabled: value } });
  };

  /**
   * Opens a form once it is known the root key may take its action (a probe when unknown); a refusal is said
   * instead. `unknown` (no honest probe, or it failed) opens the form, which says so.
   */
  async function openChecked(
    probe: (connection: Connection, key: Key) => Promise<ProbeAnswer>,
    next: (answer: ProbeAnswer) => Open,
  ) {
    if (checking) return;
    setChecking(true);
    const answer = await probe(connection, apiKey);
    setChecking(false);
    if (answer !== "refused") setOpen(next(answer));
  }
  const openUpdating = (next: Open) => openChecked(probeUpdate, () => next);

  // The note and its button go, and the button the refusal held back is enabled again: the focus goes on to it.
  const checkAgain = (action: KeyAction) => () => {
    flushSync(() => forgetRefusal(connection, action, target));
    actionButtons.get(HELD_BACK[action])?.focus();
  };
  const closeDialog = () => {
    if (open !== null) closedDialog.current = open.dialog;
    setOpen(null);
  };
  const common = { connection, apiKey, cache, renderError, onClose: closeDialog };
  // Not disabled while a probe runs (aria-disabled instead, a second click ignored): a disabled button loses the
  // focus, and the dialog it opens could not give it back when it closes.
  const updating = updateRefusal !== undefined;
  const refill = apiKey.credits?.refill?.amount;
  // The limit that refused, when one applies to every verification (analytics does not record which one did).
  const limits = appliedRateLimits(apiKey);
  const refusingLimit = limits.length === 1 ? limits[0]?.limit : undefined;

  /** A button of Key actions that opens a checked form: kept for the focus, and aria-disabled while a probe runs. */
  const opener = (name: ActionButton, disabled: boolean, onClick: () => void) => ({
    ref: keptAs(actionButtons, name),
    type: "button" as const,
    className: "button",
    disabled,
    "aria-disabled": checking || undefined,
    onClick,
  });

  const fixButtons: Record<Fix, ReactNode> = {
    enable: (
      <button
        key="enable"
        ref={keptAs(actionButtons, "enable")}
        type="button"
        className="button button--primary"
        disabled={updating || toggle.isPending}
        aria-disabled={checking || undefined}
        onClick={(event) => setEnabled(true, event.currentTarget)}
      >
        Enable
      </button>
    ),
    "add-credits": (
      <button
        key="credits"
        type="button"
        className="button button--primary"
        disabled={updating}
        aria-disabled={checking || undefined}
        onClick={() => void openUpdating({ dialog: "credits", mode: "increment", value: refill ?? 100 })}
      >
        Add credits
      </button>
    ),
    "extend-expiry": (
      <button
        key="extend"
        type="button"
        className="button button--primary"
        disabled={updating}
        aria-disabled={checking || undefined}
        onClick={() => void openUpdating({ dialog: "edit", extendTo: now + 30 * DAY })}
      >
        Extend expiry
      </button>
    ),
    "remove-expiry": (
      <button
        key="remove-expiry"
        type="button"
        className="button"
        disabled={updating || toggle.isPending}
        aria-disabled={checking || undefined}
        onClick={(event) => {
          moveFocus.current = { from: event.currentTarget, to: "edit" };
          toggle.mutate({ keyId: apiKey.keyId, changes: { expires: null }, optimistic: { expires: undefined } });
        }}
      >
        Remove expiry
      </button>
    ),
    "add-permission": (
      <button
        key="permission"
        type="button"
        className="button button--primary"
        disabled={updating}
        aria-disabled={checking || undefined}
        onClick={() =>
          void openChecked(probeAddPermission, (permission) => ({ dialog: "access", refused: true, permission }))
        }
      >
        Add permission
      </button>
    ),
    "raise-limit": (
      <button
        key="raise"
        type="button"
        className="button button--primary"
        disabled={updating}
        aria-disabled={checking || undefined}
        onClick={() =>
          void openUpdating({ dialog: "edit", ...(refusingLimit !== undefined && { raise: refusingLimit }) })
        }
      >
        Raise limit
      </button>
    ),
  };
  const fixes = verdictFixes.map((fix) => fixButtons[fix]);

  return (
    <div className="key-actions__wrap">
      {fixes.length > 0 && (
        <div className="key-actions" role="group" aria-label="Fix">
          {fixes}
        </div>
      )}
      {updateRefusal && (
        <RefusalNote
          refusal={updateRefusal}
          action="Changing this key"
          onCheckAgain={checkAgain("update_key")}
          checkAgainRef={keptAs(checkAgainButtons, "update_key")}
        />
      )}
      <div className="key-actions" role="group" aria-label="Key actions">
        {enabled && (
          <button
            ref={keptAs(actionButtons, "disable")}
            type="button"
            className="button"
            disabled={updating || toggle.isPending}
            onClick={(event) => setEnabled(false, event.currentTarget)}
          >
            Disable
          </button>
        )}
        <button {...opener("edit", updating, () => void openUpdating({ dialog: "edit" }))}>Edit</button>
        <button {...opener("credits", updating, () => void openUpdating({ dialog: "credits" }))}>Credits</button>
        <button
          {...opener(
            "access",
            updating,
            () => void openChecked(probeAccess, (permission) => ({ dialog: "access", permission })),
          )}
        >
          Permissions and roles
        </button>
        <button
          {...opener(
            "reroll",
            createRefusal !== undefined,
            () => void openChecked(probeReroll, (permission) => ({ dialog: "reroll", permission })),
          )}
        >
          Reroll
        </button>
        <button
          ref={keptAs(actionButtons, "delete")}
          type="button"
          className="button button--danger"
          disabled={deleteRefusal !== undefined}
          onClick={() => setOpen({ dialog: "delete" })}
        >
          Delete
        </button>
        {checking && <span role="status">Checking what this root key may do…</span>}
      </div>
      {createRefusal && (
        <RefusalNote
          refusal={createRefusal}
          action="Rerolling"
          onCheckAgain={checkAgain("create_key")}
          checkAgainRef={keptAs(checkAgainButtons, "create_key")}
        />
      )}
      {deleteRefusal && (
        <RefusalNote
          refusal={deleteRefusal}
          action="Deleting"
          onCheckAgain={checkAgain("delete_key")}
          checkAgainRef={keptAs(checkAgainButtons, "delete_key")}
        />
      )}
      {addPermissionRefusal && (
        <RefusalNote
          refusal={addPermissionRefusal}
          action="Adding a permission"
          onCheckAgain={checkAgain("add_permission_to_key")}
          checkAgainRef={keptAs(checkAgainButtons, "add_permission_to_key")}
        />
      )}
      {toggle.isError && !toggleRefused && (
        <div className="key-actions__result">{renderError(toggle.error, () => toggle.mutate(toggle.variables))}</div>
      )}

      {open?.dialog === "edit" && (
        <EditDialog
          {...common}
          {...(open.extendTo !== undefined && { extendTo: open.extendTo })}
          {...(open.raise !== undefined && { raise: open.raise })}
        />
      )}
      {open?.dialog === "credits" && (
        <CreditsDialog
          {...common}
          {...(open.mode !== undefined && { initialMode: open.mode })}
          {...(open.value !== undefined && { initialValue: open.value })}
        />
      )}
      {open?.dialog === "reroll" && (
        <RerollDialog {...common} keyHref={props.keyHref} permissionUnknown={open.permission === "unknown"} />
      )}
      {open?.dialog === "delete" && <DeleteDialog {...common} onDeleted={props.onDeleted} />}
      {open?.dialog === "access" && (
        <AccessDialog
          {...common}
          refused={open.refused === true}
          addPermissionUnknown={open.permission === "unknown"}
        />
      )}
    </div>
  );
}
