import { SafeName } from "@/components/safe-name";
import type { BlockedIdentifierRow } from "@/lib/analytics-rows";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import { formatCount } from "@/lib/format-number";
import { appliedOverride, limitWords } from "../override-words";

/** What the page knows of the namespace's overrides: all of them, some (more pages), or none it may read. */
export type OverridesKnown = "all" | "some" | "unreadable" | "loading";

export interface BlockedIdentifiersProps {
  rows: readonly BlockedIdentifierRow[];
  overrides: readonly RatelimitOverride[];
  overridesKnown: OverridesKnown;
  /** Set (or change) the override of an identifier; absent when the root key may not. */
  onOverride?: ((identifier: string, exact: RatelimitOverride | undefined) => void) | undefined;
}

/** "600 per minute (org_acme)", "Blocked (banned_*)", or why it is not known. */
function OverrideNow({
  identifier,
  overrides,
  known,
}: {
  identifier: string;
  overrides: readonly RatelimitOverride[];
  known: OverridesKnown;
}) {
  if (known === "unreadable") return <span className="ratelimits-muted">Unknown: the overrides may not be read</span>;
  if (known === "loading") return <span className="ratelimits-muted">…</span>;
  const applied = appliedOverride(identifier, overrides);
  if (applied === undefined)
    return <span className="ratelimits-muted">{known === "all" ? "None" : "None among those loaded"}</span>;
  const { override, tiedWith } = applied;
  return (
    <>
      <strong className={override.limit === 0 ? "blocked-identifiers__blocked" : undefined}>
        {limitWords(override.limit, override.duration)}
      </strong>{" "}
      (
      <code>
        <SafeName>{override.identifier}</SafeName>
      </code>
      {tiedWith.length > 0 && `, or ${tiedWith.map((tied) => tied.identifier).join(", ")}: the service picks one`})
    </>
  );
}

/**
 * The identifiers the namespace blocked most in the range, with what they passed, the limit of their latest decision
 * (an override's when one applied then) and the override that applies to them now, found among the namespace's
 * overrides as the service finds it; each with a way to set or change its override.
 */
export function BlockedIdentifiers({ rows, overrides, overridesKnown, onOverride }: BlockedIdentifiersProps) {
  if (rows.length === 0) return <p className="namespace-section__empty">Nothing was blocked in this range.</p>;
  return (
    <div className="blocked-identifiers">
      <table className="blocked-identifiers__table">
        <caption>Identifiers blocked most in this range</caption>
        <thead>
          <tr>
            <th scope="col">Identifier</th>
            <th scope="col">Blocked</th>
            <th scope="col">Passed</th>
            <th scope="col">Last limit</th>
            <th scope="col">Override now</th>
            {onOverride !== undefined && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const exact = overrides.find((override) => override.identifier === row.identifier);
            return (
              <tr key={row.identifier}>
                <th scope="row" data-label="Identifier">
                  <code>
                    <SafeName>{row.identifier}</SafeName>
                  </code>
                </th>
                <td data-label="Blocked">{formatCount(row.blocked)}</td>
                <td data-label="Passed">{formatCount(row.passed)}</td>
                <td data-label="Last limit">
                  {row.lastLimit === 0 ? "Blocked" : formatCount(row.lastLimit)}
                  {row.lastOverrideId !== "" && <span className="ratelimits-muted"> (an override’s)</span>}
                </td>
                <td data-label="Override now">
                  <OverrideNow identifier={row.identifier} overrides={overrides} known={overridesKnown} />
                </td>
                {onOverride !== undefined && (
                  <td>
                    <button
                      type="button"
                      className="button button--small"
                      onClick={() => onOverride(row.identifier, exact)}
                      aria-label={`${exact === undefined ? "Set override for" : "Change the override for"} ${row.identifier}`}
                    >
                      {exact === undefined ? "Set override" : "Change"}
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
