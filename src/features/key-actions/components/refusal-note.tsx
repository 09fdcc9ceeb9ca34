import { useId, type Ref } from "react";
import { grantsOf, type KeyAction, type Refusal } from "../refusals";

/** The permissions that grant `action` on `apiId`, said both ways: for every API, or for this API only. */
export function NeededPermissions({ action, apiId }: { action: KeyAction; apiId: string | undefined }) {
  const { anyOf, alsoNeeds } = grantsOf(action, apiId);
  const [everyApi, oneApi] = anyOf;
  return (
    <>
      {alsoNeeds.map((permission) => (
        <span key={permission}>
          <code>{permission}</code> together with{" "}
        </span>
      ))}
      <code>{everyApi}</code> (every API) or <code>{oneApi}</code> (
      {apiId === undefined ? "the key’s API only" : "this API only"})
    </>
  );
}

/**
 * Says, before any form, which permission the root key lacks for an action there and how to grant it; Check again
 * forgets the refusal once it has been granted (the same root key keeps its id, so nothing else would).
 */
export function RefusalNote({
  refusal,
  action,
  onCheckAgain,
  checkAgainRef,
}: {
  refusal: Refusal;
  action: string;
  onCheckAgain?: () => void;
  checkAgainRef?: Ref<HTMLButtonElement>;
}) {
  const { anyOf, alsoNeeds } = grantsOf(refusal.action, refusal.apiId);
  const grant = [...alsoNeeds, anyOf[0]].join(",");
  const saysId = useId();
  return (
    <div className="refusal-note" role="note">
      <p id={saysId}>
        <strong>
          {action} needs <NeededPermissions action={refusal.action} apiId={refusal.apiId} />
        </strong>
        , which this root key does not have
        {refusal.apiId === undefined ? (
          ""
        ) : (
          <>
            {" "}
            for <code>{refusal.apiId}</code>
          </>
        )}{" "}
        (the service refused it: “{refusal.detail}”).
      </p>
      <p>
        Fix: grant the root key one of them (in the service’s dashboard, or{" "}
        <code>npm run admin -- root-key create --permissions {grant},…</code> for the reference server), then reconnect
        with it.
      </p>
      {onCheckAgain !== undefined && (
        <button
          ref={checkAgainRef}
          type="button"
          className="button button--small"
          onClick={onCheckAgain}
          aria-describedby={saysId}
        >
          Granted since? Check again
        </button>
      )}
    </div>
  );
}

/** Before a form whose permission no request can find out without acting: said, and learnt from the first refusal. */
export function UnknownPermissionNote({
  action,
  apiId,
  what,
}: {
  action: KeyAction;
  apiId: string | undefined;
  what: string;
}) {
  return (
    <p className="refusal-note refusal-note--unknown" role="note">
      {what} needs <NeededPermissions action={action} apiId={apiId} />. Whether this root key has it is known only by
      trying: the service tells it by refusing, and then this says so before the form.
    </p>
  );
}

/** createKey's 404 for its API: a wrong API id, or (as the real service answers) a root key without create_key. */
export function AmbiguousNotFoundNote({ apiId }: { apiId: string }) {
  return (
    <div className="refusal-note" role="note">
      <p>
        The service answered “not found” for the API <code>{apiId}</code>. Either that API id is wrong (check it first),
        or, as the real service answers when a root key lacks <code>api.*.create_key</code> (or{" "}
        <code>api.{apiId}.create_key</code>), this root key may not create keys there: then grant it one of them and
        reconnect with it.
      </p>
    </div>
  );
}
