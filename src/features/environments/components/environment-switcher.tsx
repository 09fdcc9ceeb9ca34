import { useId } from "react";
import type { Environment } from "../environment-store";
import "./environments.css";

interface EnvironmentSwitcherProps {
  environments: readonly Environment[];
  active: Environment | null;
  onChoose: (environment: Environment) => void;
}

const OTHER = "";

/** The header's badge of the active environment, and a menu to switch to another one. */
export function EnvironmentSwitcher({ environments, active, onChoose }: EnvironmentSwitcherProps) {
  const selectId = useId();
  if (environments.length === 0) return null;
  return (
    <div className="environment-switcher">
      <span className={`badge ${active ? "badge--ok" : "badge--muted"} environment-switcher__badge`} data-testid="environment-badge">
        {active ? active.name : "No saved environment"}
      </span>
      <label htmlFor={selectId} className="visually-hidden">
        Environment
      </label>
      <select
        id={selectId}
        className="environment-switcher__select"
        value={active?.id ?? OTHER}
        onChange={(event) => {
          const chosen = environments.find((environment) => environment.id === event.target.value);
          if (chosen) onChoose(chosen);
        }}
      >
        {active === null && (
          <option value={OTHER} disabled>
            Switch environment…
          </option>
        )}
        {environments.map((environment) => (
          <option key={environment.id} value={environment.id}>
            {environment.name}
          </option>
        ))}
      </select>
    </div>
  );
}
