import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import { forgetKey } from "../features/connect/key-hand-over";
import { paths } from "./paths";

/**
 * Forget the key (the base URL stays, to make re-entering quick), drop every cached answer made
 * with it, and go to key entry. Used by "Forget key" and by the error panel's "Re-enter key".
 */
export function useForgetKey(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return () => {
    forgetKey();
    queryClient.clear();
    void navigate(paths.connect);
  };
}
