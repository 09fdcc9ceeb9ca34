import { describe, expect, test } from "vitest";
import { sharedLimitRefusal } from "@/lib/identity-refusal";
import type { KeyFacts } from "@/lib/key-facts";

const requests = { name: "requests", limit: 10, duration: 60_000, autoApply: true };
const uploads = { name: "uploads", limit: 2, duration: 60_000, autoApply: false };

describe("whether an identity's shared limit is what refuses its keys", () => {
  test("keys without limits of their own were refused by the identity's counter", () => {
    const keys = new Map<string, KeyFacts>([
      ["key_1", {}],
      ["key_2", { ratelimits: [] }],
    ]);
    expect(sharedLimitRefusal({ ratelimits: [requests, uploads] }, ["key_1", "key_2"], keys)).toEqual({
      kind: "shared",
      limits: [requests],
    });
  });

  test("a refused key with a limit of its own, or one not found, may have been refused by either", () => {
    const keys = new Map<string, KeyFacts>([["key_1", { ratelimits: [{ ...requests, limit: 1 }] }]]);
    expect(sharedLimitRefusal({ ratelimits: [requests] }, ["key_1"], keys).kind).toBe("shared-or-own");
    expect(sharedLimitRefusal({ ratelimits: [requests] }, ["key_9"], new Map()).kind).toBe("shared-or-own");
  });

  test("an identity with only limits that verifications must name says those; one with none refuses nothing", () => {
    expect(sharedLimitRefusal({ ratelimits: [uploads] }, ["key_1"], new Map([["key_1", {}]]))).toEqual({
      kind: "shared",
      limits: [uploads],
    });
    expect(sharedLimitRefusal({}, ["key_1"], new Map([["key_1", {}]]))).toEqual({ kind: "none" });
  });
});
