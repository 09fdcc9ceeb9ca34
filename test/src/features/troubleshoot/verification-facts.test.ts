import { expect, test } from "vitest";
import { verificationFacts } from "@/features/troubleshoot/verification-facts";
import { refusalVerdict } from "@/features/key-page/refusal-sentence";
import { emptyCounts } from "@/lib/usage-series";
import { describeVerification } from "@/lib/verification-outcomes";

const SHARED = { id: "rl_org", name: "requests", limit: 100, duration: 60_000, autoApply: true };
const KEY = { keyId: "key_acme", identity: { id: "id_1", externalId: "org_acme", ratelimits: [SHARED] } };
const AT = Date.UTC(2026, 10, 25, 13, 50, 18);

test("a key refused by its identity's rate limit names that limit, its window's end, and that the counter is shared", () => {
  const facts = verificationFacts("RATE_LIMITED", KEY, AT);
  expect(facts.ratelimit).toEqual({ name: "requests", sharedBy: "org_acme", reset: Date.UTC(2026, 10, 25, 13, 51) });
  const explanation = describeVerification(facts);
  expect(explanation.whatHappened).toBe(
    "The key's identity `org_acme` was used more often than its rate limit `requests` allows: one counter, shared by every key of that identity, so their verifications count against this key too.",
  );
});

test("a key's own limit of the same name takes the identity's place, as on the server", () => {
  const own = { ...SHARED, id: "rl_own", limit: 5 };
  expect(verificationFacts("RATE_LIMITED", { ...KEY, ratelimits: [own] }, AT).ratelimit).toEqual({
    name: "requests",
    reset: Date.UTC(2026, 10, 25, 13, 51),
  });
});

test("the 'why refused' sentence says the identity's counter is shared too", () => {
  const verdict = refusalVerdict(KEY, { ...emptyCounts(), VALID: 3, RATE_LIMITED: 5 }, AT);
  expect(verdict.text).toBe(
    "Refused mostly because callers went over its identity's rate limit “requests” (100 per 1 minute), one counter shared by every key of org_acme: 5 of 8 verifications in the last 24 h were refused as RATE_LIMITED.",
  );
});
