import { useQueryClient } from "@tanstack/react-query";
import { saveTarget } from "../features/connect/key-store";
import type { Environment } from "../features/environments/environment-store";

/**
 * Point the connection at another saved environment (the key stays in this tab) and drop every cached
 * answer, so nothing from the old environment is shown under the new one's name.
 */
export function useSwitchEnvironment(): (environment: Environment) => void {
  const queryClient = useQueryClient();
  return (environment) => {
    saveTarget(environment.baseUrl, environment.apiId);
    queryClient.clear();
  };
}
