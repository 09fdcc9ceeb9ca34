import { ANALYTICS_OUTCOMES } from "../lib/verification-outcomes";
import "./outcome-palette.css";

const KNOWN: ReadonlySet<string> = new Set(ANALYTICS_OUTCOMES);

/**
 * The CSS custom property holding an outcome's colour (outcome-palette.css); an outcome newer than Keyscope's list
 * shares one colour of its own.
 */
export function outcomeColorVar(outcome: string): string {
  return KNOWN.has(outcome) ? `--outcome-${outcome.toLowerCase().replaceAll("_", "-")}` : "--outcome-other";
}

/** An outcome as a small framed label in its colour (inside an `outcome-palette`). */
export function OutcomeBadge({ outcome }: { outcome: string }) {
  return (
    <span className="outcome-badge" style={{ borderColor: `var(${outcomeColorVar(outcome)})` }}>
      {outcome}
    </span>
  );
}
