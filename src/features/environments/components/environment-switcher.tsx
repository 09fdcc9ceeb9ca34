import { useId } from "react";
import type { Environment } from "../environment-store";
import "./environments.css";

interface EnvironmentSwitcherProps {
  environments: readonly Environment[];
  active: Environment | null;
  onChoose: (environment: Environment) => void;
}

const PLACEHOLDER = "";

/** The header's badge of the active environment, and a menu to switch to another one. */
export function EnvironmentSwitcher({ environments, active, onChoose }: EnvironmentSwitcherProps) {
  const selectId = useId();
  if (environments.length === 0) return null;
  return (
    <div className="environment-switcher">
      <span className={`badge ${active ? "badge--ok" : "badge--muted"} environment-switcher__badge`} data-testid="environment-badge">
        <span className="visually-hidden">Environment: </span>
        {active ? active.name : "Unsaved base URL"}
      </span>
      <label htmlFor={selectId} className="visually-hidden">
        Switch environment
      </label>
      {/* Always shows "Switch…": the badge names the active one, so the menu does not repeat it. */}
      <select
        id={selectId}
        className="environment-switcher__select"
        value={PLACEHOLDER}
        onChange={(event) => {
          const chosen = environments.find((environment) => environment.id === event.target.value);
          if (chosen) onChoose(chosen);
        }}
      >
        <option value={PLACEHOLDER} disabled>
          Switch…
        </option>
        {environments.map((environment) => (
          <option key={environment.id} value={environment.id} disabled={environment.id === active?.id}>
            {environment.name}
            {environment.id === active?.id ? " (active)" : ""}
          </option>
        ))}
      </select>
    </div>
  );
}
