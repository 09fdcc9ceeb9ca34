import { describe, expect, test } from "vitest";
import { identityVerdict, type VerdictFacts } from "@/features/identities/identity-verdict";
import type { KeyFacts } from "@/lib/key-facts";
import { emptyCounts } from "@/lib/usage-series";

const now = Date.UTC(2026, 10, 29, 10, 0, 30);
const requests = { id: "rl_1", name: "requests", limit: 10, duration: 60_000, autoApply: true };
const identity = { id: "id_1", externalId: "org_acme", ratelimits: [requests] };

function facts(overrides: Partial<VerdictFacts>): VerdictFacts {
  return { identity, counts: emptyCounts(), refusals: [], keys: new Map<string, KeyFacts>(), now, ...overrides };
}

describe("an identity's verdict", () => {
  test("its shared limit refusing keys without limits of their own: named, with when its window resets", () => {
    const counts = { ...emptyCounts(), VALID: 5, RATE_LIMITED: 15 };
    const refusals = [{ keyId: "key_1", outcome: "RATE_LIMITED" as const, total: 15, latest: now - 20_000 }];
    expect(identityVerdict(facts({ counts, refusals, keys: new Map([["key_1", {}]]) }))).toEqual({
      tone: "refused",
      text: "Refused mostly because callers went over its shared rate limit “requests” (10 per 1 minute), one counter for every key of org_acme: 15 of 20 verifications in the last 24 h were refused as RATE_LIMITED; the window that refused last resets at 2026-11-29 10:01:00 UTC (in under a minute).",
    });
  });

  test("a refused key with a limit of its own: the shared one or the key's, said as such", () => {
    const counts = { ...emptyCounts(), VALID: 30, RATE_LIMITED: 5 };
    const refusals = [{ keyId: "key_1", outcome: "RATE_LIMITED" as const, total: 5, latest: now }];
    const keys = new Map<string, KeyFacts>([["key_1", { ratelimits: [{ ...requests, limit: 1 }] }]]);
    expect(identityVerdict(facts({ counts, refusals, keys }))).toEqual({
      tone: "warning",
      text: "Refused at times because callers went over a rate limit, its shared rate limit “requests” (10 per 1 minute) or a key’s own: 5 of 35 verifications in the last 24 h were refused as RATE_LIMITED.",
    });
  });

  test("no verifications, all valid, unread, on their way, or refused for something else", () => {
    expect(identityVerdict(facts({})).text).toBe("None of its keys was verified in the last 24 h.");
    expect(identityVerdict(facts({ counts: { ...emptyCounts(), VALID: 1 } }))).toEqual({
      tone: "ok",
      text: "Its keys verified fine once in the last 24 h.",
    });
    expect(identityVerdict(facts({ counts: null })).tone).toBe("quiet");
    expect(identityVerdict(facts({ counts: "pending" })).text).toMatch(/on their way/);
    expect(identityVerdict(facts({ counts: { ...emptyCounts(), VALID: 1, EXPIRED: 3, DISABLED: 1 } })).text).toBe(
      "Refused mostly: 4 of 5 verifications in the last 24 h were refused, most (3) as EXPIRED; the keys refused are listed below.",
    );
  });
});
