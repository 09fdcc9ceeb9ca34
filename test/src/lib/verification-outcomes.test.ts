import { describe, expect, test } from "vitest";
import { ANALYTICS_OUTCOMES, describeVerification, VERIFICATION_OUTCOMES } from "../../../src/lib/verification-outcomes";

describe("verification outcomes", () => {
  test("every outcome of keys.verifyKey and of analytics has its own entry with a heading, what happened and the causes", () => {
    for (const outcome of VERIFICATION_OUTCOMES) {
      const explanation = describeVerification({ outcome });
      expect(explanation.entryId).toBe(`verification:${outcome}`);
      expect(explanation.heading).not.toBe("");
      expect(explanation.whatHappened).not.toBe("");
      if (outcome !== "VALID") {
        expect(explanation.fixSteps.length, outcome).toBeGreaterThan(0);
        expect(explanation.likelyCauses.length, outcome).toBeGreaterThan(0);
      }
    }
  });

  test("the specifics say since when a key expired, when its credits refill, which limit refused and which permission was asked", () => {
    const expired = describeVerification({ outcome: "EXPIRED", key: { keyId: "key_1", expires: Date.UTC(2026, 0, 2) } });
    expect(expired.whatHappened).toContain("expired at 2026-01-02 00:00:00 UTC");
    const credits = { remaining: 0, refill: { interval: "monthly" as const, amount: 100, refillDay: 1 } };
    const used = describeVerification({ outcome: "USAGE_EXCEEDED", key: { keyId: "key_1", credits } });
    expect(used.whatHappened).toBe("Each verification spends credits, and this key has 0 left. They refill monthly on day 1, by 100.");
    const limited = describeVerification({ outcome: "RATE_LIMITED", ratelimit: { name: "per-user", reset: Date.UTC(2026, 0, 2, 3) } });
    expect(limited.whatHappened).toContain("`per-user`");
    expect(limited.whatHappened).toContain("resets at 2026-01-02 03:00:00 UTC");
    const permissions = describeVerification({ outcome: "INSUFFICIENT_PERMISSIONS", permissions: "documents.write", key: { keyId: "k", permissions: ["documents.read"] } });
    expect(permissions.whatHappened).toBe("The verification asked for `documents.write` and the key does not have them (it has `documents.read`).");
  });

  test("an outcome newer than the table still gets a sentence, and so does one named like an object's property", () => {
    expect(describeVerification({ outcome: "QUANTUM" })).toMatchObject({ entryId: "verification:other", heading: "Outcome QUANTUM" });
    expect(describeVerification({ outcome: "constructor" })).toMatchObject({ entryId: "verification:other", heading: "Outcome constructor" });
  });

  test("analytics records every outcome of keys.verifyKey but NOT_FOUND (a key that does not exist has no row)", () => {
    expect(VERIFICATION_OUTCOMES.filter((outcome) => !(ANALYTICS_OUTCOMES as readonly string[]).includes(outcome))).toEqual(["NOT_FOUND"]);
  });
});
