import { Navigate, Outlet, useOutletContext } from "react-router-dom";
import { useConnection } from "../features/connect/key-store";
import type { Connection } from "../lib/api/transport";

/** The guard of every page that needs a key: without one stored, key entry is where you go. */
export function RequireConnection() {
  const connection = useConnection();
  if (connection === null) return <Navigate to="/connect" replace />;
  return <Outlet context={connection} />;
}

/** The stored connection, inside a route guarded by RequireConnection. */
export function useRequiredConnection(): Connection {
  return useOutletContext<Connection>();
}
