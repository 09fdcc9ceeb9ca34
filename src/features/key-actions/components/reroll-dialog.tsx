import { useId, useState } from "react";
import { useAppForm } from "@/components/form/app-form";
import { FormEnd } from "@/components/form/form-end";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { formatPastTime, formatRelativeTime, formatUtcTime } from "@/lib/format-time";
import { useHoldPage } from "@/lib/hooks/use-hold-page";
import { useNow, useTickAt } from "@/lib/hooks/use-now";
import { SECRET_LOST_BY_LEAVING, SECRET_ON_ITS_WAY, useRerollKey } from "../api/use-key-mutations";
import type { KeyCache } from "../key-cache";
import { apiOf } from "../refusals";
import { ActionDialog } from "@/components/action-dialog";
import "./key-actions.css";
import { UnknownPermissionNote } from "./refusal-note";
import type { RenderError } from "./render-error";
import { SecretField } from "./secret-field";

const MINUTE = 60_000;
/** How long the old secret keeps working: the time callers need to switch to the new one. */
export const GRACE_PERIODS = [
  { ms: 0, label: "Stop the old key now" },
  { ms: 5 * MINUTE, label: "5 minutes" },
  { ms: 60 * MINUTE, label: "1 hour" },
  { ms: 24 * 60 * MINUTE, label: "24 hours" },
  { ms: 7 * 24 * 60 * MINUTE, label: "7 days" },
] as const;

const DEFAULT_GRACE: number = GRACE_PERIODS[2].ms;

export interface RerollDialogProps {
  connection: Connection;
  apiKey: Key;
  cache: KeyCache;
  renderError: RenderError;
  onClose: () => void;
  /** A link to the new key's page. */
  keyHref: (keyId: string) => string;
  /** No request could tell whether the root key may reroll this key (its API is unknown): said before the form. */
  permissionUnknown?: boolean;
}

/**
 * What the new key's expiry will be: a rerolled key keeps the old one's, as the real service copies it. Said before
 * the reroll, for it is easy to miss: a key whose own expiry has passed (rerolled once before with its old secret
 * stopped at once, say) gives a new key refused at once as EXPIRED.
 */
function InheritedExpiry({ expires }: { expires: number }) {
  const now = useNow();
  // An expiry a moment ago (a reroll that stopped the key at once) is behind the wall clock but may be ahead of the
  // page's, which ticks once a minute: the clock ticks then.
  useTickAt(expires);
  const expired = expires <= now;
  // An expiry that has passed is said as the past ("just now", never "in under a minute").
  const when = `${expired ? formatPastTime(expires, now) : formatRelativeTime(expires, now)} (${formatUtcTime(expires) ?? "an unreadable date"})`;
  if (expired) {
    return (
      <p className="refusal-note" role="note">
        This key expired {when}. The new key keeps that expiry, so the service would refuse it at once as EXPIRED:
        remove or extend this key&rsquo;s expiry (Edit) before you reroll it.
      </p>
    );
  }
  return <p className="field__note">The new key keeps this key&rsquo;s expiry: it stops working {when}.</p>;
}

/** Reroll: a new secret with the same settings; the old one keeps working for the grace period chosen. */
export function RerollDialog({
  connection,
  apiKey,
  cache,
  renderError,
  onClose,
  keyHref,
  permissionUnknown = false,
}: RerollDialogProps) {
  const id = useId();
  const [rerolled, setRerolled] = useState<{ keyId: string; secret: string } | null>(null);
  const mutation = useRerollKey(connection, cache);
  useHoldPage(mutation.isPending || rerolled !== null ? SECRET_LOST_BY_LEAVING : null);

  const form = useAppForm({
    defaultValues: { grace: DEFAULT_GRACE },
    onSubmit: ({ value }) => send(value.grace),
  });

  function send(grace: number) {
    let secret = "";
    mutation.mutate(
      { keyId: apiKey.keyId, expirationMs: grace, reveal: (value) => (secret = value) },
      {
        onSuccess: ({ keyId }) => {
          setRerolled({ keyId, secret });
          mutation.reset();
        },
      },
    );
  }

  return (
    <ActionDialog
      title={rerolled === null ? "Reroll key" : "Key rerolled"}
      onClose={onClose}
      busy={mutation.isPending ? SECRET_ON_ITS_WAY : undefined}
    >
      {rerolled === null ? (
        <form
          className="action-form"
          onSubmit={(event) => {
            event.preventDefault();
            void form.handleSubmit();
          }}
        >
          {permissionUnknown && (
            <UnknownPermissionNote
              action="create_key"
              apiId={apiOf(connection, { keyId: apiKey.keyId })}
              what="Rerolling (it makes a key)"
            />
          )}
          <p>A new key with the same settings replaces this one. Callers need the new secret.</p>
          {apiKey.expires !== undefined && <InheritedExpiry expires={apiKey.expires} />}
          <form.Field name="grace">
            {(field) => (
              <div className="field">
                <label className="field__label" htmlFor={`${id}-grace`}>
                  Old key keeps working for
                </label>
                <select
                  id={`${id}-grace`}
                  className="input"
                  value={field.state.value}
                  onChange={(event) => field.handleChange(Number(event.target.value))}
                >
                  {GRACE_PERIODS.map((period) => (
                    <option key={period.ms} value={period.ms}>
                      {period.label}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </form.Field>
          <FormEnd
            error={mutation.isError && renderError(mutation.error, () => void form.handleSubmit())}
            pending={mutation.isPending}
            label="Reroll key"
            pendingLabel="Rerolling…"
          />
        </form>
      ) : (
        <>
          <SecretField secret={rerolled.secret} keyId={rerolled.keyId} />
          <div className="action-form__buttons">
            <a className="button" href={keyHref(rerolled.keyId)}>
              Open the new key
            </a>
            <button type="button" className="button button--primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      )}
    </ActionDialog>
  );
}
