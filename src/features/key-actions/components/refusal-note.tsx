import type { Refusal } from "../refusals";

/** Says, before any form, which permission the root key lacks for an action and how to grant it. */
export function RefusalNote({ refusal, action }: { refusal: Refusal; action: string }) {
  return (
    <div className="refusal-note" role="note">
      <p>
        <strong>
          {action} needs <code>{refusal.permission}</code>
        </strong>
        , which this root key does not have (the service refused it: “{refusal.detail}”).
      </p>
      <p>
        Fix: grant the root key <code>{refusal.permission}</code> (in the service’s dashboard, or{" "}
        <code>npm run admin -- root-key create --permissions {refusal.permission},…</code> for the reference server), then
        reconnect with it.
      </p>
    </div>
  );
}

/** createKey's 404 for its API: a wrong API id, or (as the real service answers) a root key without create_key. */
export function AmbiguousNotFoundNote({ apiId }: { apiId: string }) {
  return (
    <div className="refusal-note" role="note">
      <p>
        The service answered “not found” for the API <code>{apiId}</code>. Either that API id is wrong (check it first), or,
        as the real service answers when a root key lacks <code>api.*.create_key</code>, this root key may not create keys
        there: then grant it <code>api.*.create_key</code> and reconnect with it.
      </p>
    </div>
  );
}
