import { Navigate } from "react-router-dom";
import { useConnection } from "../features/connect/key-store";
import { paths } from "./paths";

export function HomeRedirect() {
  const connection = useConnection();
  return <Navigate to={connection === null ? paths.connect : paths.keys} replace />;
}
