import { Navigate, Outlet, useOutletContext } from "react-router-dom";
import { useKeyHandOverPending } from "../features/connect/key-hand-over";
import { useConnection } from "../features/connect/key-store";
import type { Connection } from "../lib/api/transport";
import { KeyHandOverPending } from "./await-key-hand-over";
import { paths } from "./paths";

/** The guard of every page that needs a key: without one stored (and none handed over by another tab), key entry. */
export function RequireConnection() {
  const connection = useConnection();
  const pending = useKeyHandOverPending();
  if (connection === null && pending) return <KeyHandOverPending />;
  if (connection === null) return <Navigate to={paths.connect} replace />;
  return <Outlet context={connection} />;
}

/** The stored connection, inside a route guarded by RequireConnection. */
export function useRequiredConnection(): Connection {
  return useOutletContext<Connection>();
}
