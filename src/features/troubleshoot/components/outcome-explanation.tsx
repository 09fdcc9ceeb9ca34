import { formatPastTime, formatRelativeTime, formatUtcTime } from "@/lib/format-time";
import { describeReset, nextRefill } from "@/lib/key-limits";
import { describeVerification, type VerificationFacts } from "@/lib/verification-outcomes";
import { RichText } from "./rich-text";
import "./request-lookup.css";

/**
 * What a verification's outcome means and how to fix it, from the catalog, with what the key's fields add:
 * since when it expired, when its credits refill; and what analytics does not record, said plainly.
 */
export function OutcomeExplanation({
  facts,
  now,
  headingLevel = 3,
}: {
  facts: VerificationFacts;
  now: number;
  headingLevel?: 3 | 4;
}) {
  const explanation = describeVerification(facts);
  const Heading = headingLevel === 3 ? "h3" : "h4";
  const notes = specifics(facts, now);
  return (
    <div className={`outcome-explanation outcome-explanation--${explanation.tone}`}>
      <Heading className="outcome-explanation__heading">
        <code>{facts.outcome}</code> {explanation.heading}
      </Heading>
      <p>
        <RichText text={explanation.whatHappened} />
      </p>
      {notes.map((note) => (
        <p key={note} className="outcome-explanation__note">
          <RichText text={note} />
        </p>
      ))}
      {explanation.fixSteps.length > 0 && (
        <>
          <p className="outcome-explanation__fix-label">Fix:</p>
          <ul className="outcome-explanation__fix">
            {explanation.fixSteps.map((step) => (
              <li key={step}>
                <RichText text={step} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function specifics(facts: VerificationFacts, now: number): string[] {
  const key = facts.key;
  switch (facts.outcome) {
    case "EXPIRED":
      return key?.expires === undefined ? [] : [`Expired ${formatPastTime(key.expires, now)}.`];
    case "USAGE_EXCEEDED": {
      const refill = nextRefill(key?.credits, now);
      return refill === null ? [] : [`Next refill ${formatRelativeTime(refill, now)} (${formatUtcTime(refill)}).`];
    }
    case "RATE_LIMITED":
      return facts.ratelimit === undefined
        ? [
            "Analytics does not record which rate limit refused a verification, and more than one (or none) applies to every verification of this key, its identity's included.",
          ]
        : resetNote(facts.ratelimit.reset, now);
    case "INSUFFICIENT_PERMISSIONS":
      return facts.permissions === undefined
        ? ["Analytics does not record which permission the verification asked for."]
        : [];
    default:
      return [];
  }
}

/** When the window that refused it ends: ahead, or said to be past (a reset that has passed is not a wait). */
function resetNote(reset: number | undefined, now: number): string[] {
  const said = reset === undefined ? null : describeReset(reset, now);
  return said === null ? [] : [`The limit ${said}.`];
}
