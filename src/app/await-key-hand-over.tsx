import { Outlet } from "react-router-dom";
import { useKeyHandOverPending } from "../features/connect/key-hand-over";

/** While another tab may be handing this one the key, say so instead of asking for it. */
export function KeyHandOverPending() {
  return (
    <p className="page-status" role="status">
      <span className="spinner" aria-hidden="true" /> Looking for your key in this site's other tabs…
    </p>
  );
}

/** A route that waits for the hand-over before its page decides whether a key is stored (key entry). */
export function AwaitKeyHandOver() {
  return useKeyHandOverPending() ? <KeyHandOverPending /> : <Outlet />;
}
