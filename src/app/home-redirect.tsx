import { Navigate } from "react-router-dom";
import { useKeyHandOverPending } from "../features/connect/key-hand-over";
import { useConnection } from "../features/connect/key-store";
import { KeyHandOverPending } from "./await-key-hand-over";
import { paths } from "./paths";

export function HomeRedirect() {
  const connection = useConnection();
  const pending = useKeyHandOverPending();
  if (connection === null && pending) return <KeyHandOverPending />;
  return <Navigate to={connection === null ? paths.connect : paths.keys} replace />;
}
