import { defaultBaseUrl } from "../features/connect/default-base-url";
import { useStoredTarget } from "../features/connect/key-store";
import { activeEnvironment, useEnvironments, type Environment } from "../features/environments/environment-store";

/**
 * The saved environments, and the one the stored base URL and API ID belong to (derived, never stored);
 * before anything is stored, the base URL key entry suggests counts.
 */
export function useActiveEnvironment(): { environments: readonly Environment[]; active: Environment | null } {
  const environments = useEnvironments();
  const target = useStoredTarget() ?? { baseUrl: defaultBaseUrl(), apiId: undefined };
  return { environments, active: activeEnvironment(environments, target) };
}
