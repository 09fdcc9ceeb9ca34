import { useQueryClient } from "@tanstack/react-query";
import { dropKeyInThisTab, readConnection, saveTarget } from "../features/connect/key-store";
import type { Environment } from "../features/environments/environment-store";

export interface SwitchOptions {
  /** The user just saw the key work in that environment: it may follow the switch. */
  keepKey?: boolean;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Point the connection at another saved environment and drop every cached answer, so nothing from the old
 * environment is shown under the new one's name. A key belongs to the environment it was entered for: it
 * follows only to the same origin, or when the user has just seen it work there; otherwise it is dropped
 * (in this tab only) and key entry asks again, saying why.
 */
export function useSwitchEnvironment(): (environment: Environment, options?: SwitchOptions) => void {
  const queryClient = useQueryClient();
  return (environment, { keepKey = false } = {}) => {
    const current = readConnection();
    const keyWasFor = current === null ? null : originOf(current.baseUrl);
    saveTarget(environment.baseUrl, environment.apiId, environment.id);
    if (current !== null && !keepKey && keyWasFor !== originOf(environment.baseUrl)) {
      dropKeyInThisTab({ keyWasFor: keyWasFor ?? current.baseUrl, switchedTo: environment.name });
    }
    queryClient.clear();
  };
}
