import type { Key } from "./contract";
import { formatCount } from "./format-number";
import { formatUtcTime } from "./format-time";
import { describeRefill } from "./key-facts";
import type { Tone } from "./tone";

/**
 * What each verification outcome means: `keys.verifyKey` answers 200 with a `code`, and analytics records an
 * `outcome` (docs/api.md#verifying-a-key). These are answers, not errors, so they are not in the error catalog; the key's
 * page and the request-id lookup both explain them from here.
 */

/** Every `code` of `keys.verifyKey`. */
export const VERIFICATION_OUTCOMES = [
  "VALID",
  "NOT_FOUND",
  "FORBIDDEN",
  "INSUFFICIENT_PERMISSIONS",
  "USAGE_EXCEEDED",
  "RATE_LIMITED",
  "DISABLED",
  "EXPIRED",
  "INVALID",
] as const;

export type VerificationOutcome = (typeof VERIFICATION_OUTCOMES)[number];

/** The outcomes analytics records (a key that does not exist has no row), in the order charts stack them. */
export const ANALYTICS_OUTCOMES = [
  "VALID",
  "RATE_LIMITED",
  "USAGE_EXCEEDED",
  "EXPIRED",
  "DISABLED",
  "INSUFFICIENT_PERMISSIONS",
  "FORBIDDEN",
  "INVALID",
] as const satisfies readonly VerificationOutcome[];

export type AnalyticsOutcome = (typeof ANALYTICS_OUTCOMES)[number];

/** What is known about one verification, for the specifics: the more, the more precise the sentence. */
export interface VerificationFacts {
  /** `code` of a `keys.verifyKey` answer, or `outcome` of an analytics row. */
  outcome: string;
  /** The key that was verified, as `keys.getKey` returned it: its expiry, credits and their refill. */
  key?: Key | undefined;
  /** The rate limit that refused it, and when it resets (ms since the epoch). */
  ratelimit?: { name: string; reset?: number | undefined; sharedBy?: string | undefined } | undefined;
  /** The permission query the verification asked for. */
  permissions?: string | undefined;
}

/** What an outcome means and how to fix it. Text may mark code with backticks, as the error catalog's does. */
export interface OutcomeExplanation {
  /** `verification:<OUTCOME>`, or `verification:other` for an outcome newer than this table. */
  entryId: string;
  tone: Tone;
  heading: string;
  whatHappened: string;
  fixSteps: string[];
  likelyCauses: string[];
}

type ByFacts<T> = T | ((facts: VerificationFacts) => T);

interface OutcomeEntry {
  tone: Tone;
  heading: string;
  whatHappened: ByFacts<string>;
  fixSteps: ByFacts<readonly string[]>;
  likelyCauses: readonly string[];
}

function at(ms: number | undefined): string | null {
  return ms === undefined ? null : formatUtcTime(ms);
}

const OUTCOME_ENTRIES: Record<VerificationOutcome, OutcomeEntry> = {
  VALID: {
    tone: "info",
    heading: "Verified",
    whatHappened:
      "The key exists, is enabled and not expired, had the permissions and credits asked for, and was within its rate limits.",
    fixSteps: [],
    likelyCauses: [],
  },
  NOT_FOUND: {
    tone: "danger",
    heading: "Refused: no such key",
    whatHappened:
      "The key presented does not exist in this API: it was never created here, was deleted, or was cut off or mistyped by the caller.",
    fixSteps: [
      "Check that the caller sends the whole key, exactly as it was created.",
      "Check that the caller verifies against the API (and environment) the key was created in.",
    ],
    likelyCauses: [
      "A deleted or never-created key.",
      "A key from another API or environment.",
      "A key truncated on the way.",
    ],
  },
  // The real service's only FORBIDDEN, and the reference server's: the key's API has an IP whitelist.
  FORBIDDEN: {
    tone: "danger",
    heading: "Refused: called from an address the API does not allow",
    whatHappened:
      "The key's API has an IP whitelist, and the verification came from an address it does not list (the first address of `X-Forwarded-For`, else the connection's).",
    fixSteps: [
      "Verify from a server whose address the API lists.",
      "Or add the caller's address to the API's IP whitelist, if it should verify keys (reference server: `npm run admin -- apis update <apiId> --ip-whitelist <addresses>`).",
    ],
    likelyCauses: [
      "A new server, or one whose address changed, that the whitelist does not list yet.",
      "A proxy in front of the API that puts its own address, or none, in `X-Forwarded-For`.",
    ],
  },
  INSUFFICIENT_PERMISSIONS: {
    tone: "danger",
    heading: "Refused: the key lacks a permission",
    whatHappened: (facts) =>
      `The verification asked for ${facts.permissions ? `\`${facts.permissions}\`` : "permissions"} and the key does not have ${facts.permissions ? "them" : "all of them"}` +
      (facts.key?.permissions
        ? ` (it has ${facts.key.permissions.length === 0 ? "none" : facts.key.permissions.map((name) => `\`${name}\``).join(", ")}).`
        : "."),
    fixSteps: [
      "Give the key the permission (directly or through a role), if it should have it.",
      "Otherwise the refusal is right: the caller asked for something this key may not do.",
    ],
    likelyCauses: [
      "The key was created before the permission was required.",
      "A role that does not include the permission.",
    ],
  },
  USAGE_EXCEEDED: {
    tone: "warning",
    heading: "Refused: the key was out of credits",
    whatHappened: (facts) => {
      const credits = facts.key?.credits;
      // The key's fields are read now, the refusal happened then: a refill or a change may lie between.
      const now =
        credits === undefined || credits.remaining === null
          ? ""
          : credits.remaining === 0
            ? " It has none left now."
            : ` It has ${formatCount(credits.remaining)} now (a refill or a change since).`;
      const refill =
        credits?.refill === undefined
          ? credits === undefined
            ? ""
            : " Its credits are never refilled."
          : ` Its credits are ${describeRefill(credits.refill)}.`;
      return `The verification cost more credits than the key had left.${now}${refill}`;
    },
    fixSteps: (facts) =>
      facts.key?.credits?.refill === undefined
        ? ["Add credits to the key (or give it a refill), if it should go on being used."]
        : [
            "Add credits to the key (or raise its refill), if it should go on being used.",
            "Otherwise wait for the next refill.",
          ],
    likelyCauses: ["The key's usage was capped on purpose.", "A client retrying in a loop spent the credits."],
  },
  RATE_LIMITED: {
    tone: "warning",
    heading: "Refused: the key hit its rate limit",
    whatHappened: (facts) => {
      const limit = facts.ratelimit;
      if (limit?.sharedBy !== undefined) {
        return `The key's identity \`${limit.sharedBy}\` was used more often than its rate limit \`${limit.name}\` allows: one counter, shared by every key of that identity, so their verifications count against this key too.`;
      }
      return `The key was used more often than ${limit ? `its rate limit \`${limit.name}\`` : "one of its rate limits"} allows.`;
    },
    fixSteps: [
      "Slow the caller down, or spread its requests over time.",
      "Raise the limit on the key or its identity, if the traffic is expected.",
    ],
    likelyCauses: [
      "A burst of traffic from one client.",
      "Several clients sharing one key.",
      "A limit set lower than the traffic.",
    ],
  },
  DISABLED: {
    tone: "danger",
    heading: "Refused: the key is disabled",
    whatHappened: "The key exists but is disabled, so every verification of it is refused until it is enabled again.",
    fixSteps: ["Enable the key again, if it was disabled by mistake.", "Otherwise give the caller another key."],
    likelyCauses: [
      "Someone disabled the key on purpose, for example while rotating keys.",
      "An automated policy disabled it.",
    ],
  },
  EXPIRED: {
    tone: "danger",
    heading: "Refused: the key has expired",
    whatHappened: (facts) => {
      const since = at(facts.key?.expires);
      return `The key's expiry date has passed${since === null ? "" : ` (it expired at ${since})`}, so every verification of it is refused.`;
    },
    fixSteps: ["Give the caller a new key.", "Or move the key's expiry date, if it should still work."],
    likelyCauses: ["A key created with an expiry date that has passed.", "A temporary key still in use."],
  },
  INVALID: {
    tone: "danger",
    heading: "Refused: the key was invalid",
    whatHappened:
      "Analytics recorded the verification as invalid: the key was malformed or failed a check that has no outcome of its own.",
    fixSteps: ["Check that the caller sends the whole key, without quotes, spaces or a `Bearer ` prefix."],
    likelyCauses: ["A malformed or truncated key.", "A key sent in the wrong form."],
  },
};

// A Map, not the object: an outcome from the network never reads an inherited property ("constructor").
const ENTRY_BY_OUTCOME = new Map<string, OutcomeEntry>(Object.entries(OUTCOME_ENTRIES));

/** What a verification's outcome means and how to fix it; an outcome newer than this table gets a plain sentence. */
export function describeVerification(facts: VerificationFacts): OutcomeExplanation {
  const entry = ENTRY_BY_OUTCOME.get(facts.outcome);
  if (entry === undefined) {
    return {
      entryId: "verification:other",
      tone: "warning",
      heading: `Outcome ${facts.outcome}`,
      whatHappened: `The verification ended with ${facts.outcome}, an outcome this version of Keyscope has no explanation for.`,
      fixSteps: [],
      likelyCauses: [],
    };
  }
  return {
    entryId: `verification:${facts.outcome}`,
    tone: entry.tone,
    heading: entry.heading,
    whatHappened: typeof entry.whatHappened === "function" ? entry.whatHappened(facts) : entry.whatHappened,
    fixSteps: [...(typeof entry.fixSteps === "function" ? entry.fixSteps(facts) : entry.fixSteps)],
    likelyCauses: [...entry.likelyCauses],
  };
}
