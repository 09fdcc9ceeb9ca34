import { Navigate } from "react-router-dom";
import { useConnection } from "../features/connect/key-store";

export function HomeRedirect() {
  const connection = useConnection();
  return <Navigate to={connection === null ? "/connect" : "/keys"} replace />;
}
