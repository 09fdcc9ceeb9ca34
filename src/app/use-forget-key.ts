import { useQueryClient } from "@tanstack/react-query";
import { useLocation, useNavigate } from "react-router-dom";
import { forgetKey } from "../features/connect/key-hand-over";
import { paths, type ReturnState } from "./paths";

/**
 * Forget the key (the base URL stays, to make re-entering quick), drop every cached answer made
 * with it, and go to key entry, which leads back to this page once a key is entered (as the guard of a
 * page that needs a key does). Used by "Forget key" and by the error panel's "Re-enter key".
 */
export function useForgetKey(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  return () => {
    forgetKey();
    queryClient.clear();
    const state: ReturnState = { returnTo: `${pathname}${search}${hash}` };
    void navigate(paths.connect, { state });
  };
}
