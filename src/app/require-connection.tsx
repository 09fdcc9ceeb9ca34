import { Navigate, Outlet, useLocation, useOutletContext } from "react-router-dom";
import { useKeyHandOverPending } from "../features/connect/key-hand-over";
import { useConnection } from "../features/connect/key-store";
import type { Connection } from "../lib/api/transport";
import { KeyHandOverPending } from "./await-key-hand-over";
import { paths, type ReturnState } from "./paths";

/**
 * The guard of every page that needs a key: without one stored (and none handed over by another tab), key
 * entry, which comes back here once the key is entered (a link to a key's page leads to that key).
 */
export function RequireConnection() {
  const connection = useConnection();
  const pending = useKeyHandOverPending();
  const { pathname, search, hash } = useLocation();
  if (connection === null && pending) return <KeyHandOverPending />;
  if (connection === null) {
    const state: ReturnState = { returnTo: `${pathname}${search}${hash}` };
    return <Navigate to={paths.connect} replace state={state} />;
  }
  return <Outlet context={connection} />;
}

/** The stored connection, inside a route guarded by RequireConnection. */
export function useRequiredConnection(): Connection {
  return useOutletContext<Connection>();
}
