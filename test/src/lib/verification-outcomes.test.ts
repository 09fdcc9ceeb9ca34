import { describe, expect, test } from "vitest";
import { ANALYTICS_OUTCOMES, describeVerification, VERIFICATION_OUTCOMES } from "@/lib/verification-outcomes";

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

  test("a FORBIDDEN refusal is explained by the API's IP whitelist, its only cause", () => {
    const forbidden = describeVerification({ outcome: "FORBIDDEN" });
    expect(forbidden.heading).toBe("Refused: called from an address the API does not allow");
    expect(forbidden.whatHappened).toContain("IP whitelist");
    expect(forbidden.fixSteps.join(" ")).toContain("--ip-whitelist");
  });

  test("a credits refusal says a refill sets the credits, does not contradict the key's count now, and offers a refill only when there is one", () => {
    const refilled = describeVerification({
      outcome: "USAGE_EXCEEDED",
      key: { keyId: "key_1", credits: { remaining: 18, refill: { interval: "daily", amount: 20 } } },
    });
    expect(refilled.heading).toBe("Refused: the key was out of credits");
    expect(refilled.whatHappened).toBe(
      "The verification cost more credits than the key had left. It has 18 now (a refill or a change since). Its credits are set to 20 every day.",
    );
    expect(refilled.fixSteps).toContain("Otherwise wait for the next refill.");
    const never = describeVerification({
      outcome: "USAGE_EXCEEDED",
      key: { keyId: "key_1", credits: { remaining: 0 } },
    });
    expect(never.whatHappened).toBe(
      "The verification cost more credits than the key had left. It has none left now. Its credits are never refilled.",
    );
    expect(never.fixSteps).toEqual(["Add credits to the key (or give it a refill), if it should go on being used."]);
  });

  test("the specifics say since when a key expired, when its credits refill, which limit refused and which permission was asked", () => {
    const expired = describeVerification({
      outcome: "EXPIRED",
      key: { keyId: "key_1", expires: Date.UTC(2026, 0, 2) },
    });
    expect(expired.whatHappened).toContain("expired at 2026-01-02 00:00:00 UTC");
    const credits = { remaining: 0, refill: { interval: "monthly" as const, amount: 100, refillDay: 1 } };
    const used = describeVerification({ outcome: "USAGE_EXCEEDED", key: { keyId: "key_1", credits } });
    expect(used.whatHappened).toBe(
      "The verification cost more credits than the key had left. It has none left now. Its credits are set to 100 every month on day 1.",
    );
    const limited = describeVerification({
      outcome: "RATE_LIMITED",
      ratelimit: { name: "per-user", reset: Date.UTC(2026, 0, 2, 3) },
    });
    expect(limited.whatHappened).toContain("`per-user`");
    // When it resets depends on the time it is read: the key page and the lookup say it (outcome-explanation).
    expect(limited.whatHappened).toBe("The key was used more often than its rate limit `per-user` allows.");
    const permissions = describeVerification({
      outcome: "INSUFFICIENT_PERMISSIONS",
      permissions: "documents.write",
      key: { keyId: "k", permissions: ["documents.read"] },
    });
    expect(permissions.whatHappened).toBe(
      "The verification asked for `documents.write` and the key does not have them (it has `documents.read`).",
    );
  });

  test("an outcome newer than the table still gets a sentence, and so does one named like an object's property", () => {
    expect(describeVerification({ outcome: "QUANTUM" })).toMatchObject({
      entryId: "verification:other",
      heading: "Outcome QUANTUM",
    });
    expect(describeVerification({ outcome: "constructor" })).toMatchObject({
      entryId: "verification:other",
      heading: "Outcome constructor",
    });
  });

  test("analytics records every outcome of keys.verifyKey but NOT_FOUND (a key that does not exist has no row)", () => {
    expect(
      VERIFICATION_OUTCOMES.filter((outcome) => !(ANALYTICS_OUTCOMES as readonly string[]).includes(outcome)),
    ).toEqual(["NOT_FOUND"]);
  });
});
