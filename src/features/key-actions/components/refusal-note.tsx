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
      {refusal.ambiguousNotFound && (
        <p>
          The service answered “not found” for the API: either the API id is wrong, or, as the real service answers when a
          root key lacks <code>{refusal.permission}</code>, the root key may not create keys there. Check the API id first.
        </p>
      )}
      <p>
        Fix: grant the root key <code>{refusal.permission}</code> (in the service’s dashboard, or{" "}
        <code>npm run admin -- root-key create --permissions {refusal.permission},…</code> for the reference server), then
        reconnect with it.
      </p>
    </div>
  );
}
