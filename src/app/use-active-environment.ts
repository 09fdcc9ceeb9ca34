import { useStoredTarget } from "../features/connect/key-store";
import { activeEnvironment, useEnvironments, type Environment } from "../features/environments/environment-store";

/** The saved environments, and the one the stored base URL and API ID belong to (derived, never stored). */
export function useActiveEnvironment(): { environments: readonly Environment[]; active: Environment | null } {
  const environments = useEnvironments();
  const target = useStoredTarget();
  return { environments, active: activeEnvironment(environments, target) };
}
