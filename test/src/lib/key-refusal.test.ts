import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { refusalVerdict } from "@/features/key-page/refusal-sentence";
import { emptyCounts } from "@/lib/usage-series";
import { fieldStatuses } from "@/features/keys/utils/key-status";
import type { Key } from "@/lib/contract";
import { fieldRefusals, keyRefusal } from "@/lib/key-refusal";

const NOW = Date.UTC(2026, 10, 23, 10, 30);
const DAY = 86_400_000;

describe("why a key is refused", () => {
  test("its fields' reasons come in the order the server checks them, the first being what it records", () => {
    const key: Key = { keyId: "key_1", enabled: false, expires: NOW - DAY, credits: { remaining: 0 } };
    expect(fieldRefusals(key, NOW)).toEqual(["disabled", "expired", "no-credits"]);
    expect(fieldRefusals({ expires: NOW }, NOW)).toEqual(["expired"]);
    expect(fieldRefusals({ expires: NOW + 1, credits: { remaining: null } }, NOW)).toEqual([]);
  });

  test("each reason brings its fixes, in the order they are offered", () => {
    const key: Key = { keyId: "key_1", enabled: false, expires: NOW - DAY, credits: { remaining: 0 } };
    expect(keyRefusal(key, NOW, "RATE_LIMITED").fixes).toEqual([
      "enable",
      "add-credits",
      "extend-expiry",
      "remove-expiry",
      "raise-limit",
    ]);
    expect(keyRefusal({}, NOW, "INSUFFICIENT_PERMISSIONS").fixes).toEqual(["add-permission"]);
  });

  test("what its verifications were refused as earlier offers no fix its fields no longer need", () => {
    // Disabled yesterday, enabled since: the DISABLED refusals recorded do not bring Enable back.
    for (const recorded of ["DISABLED", "EXPIRED", "USAGE_EXCEEDED", "FORBIDDEN", "INVALID", "VALID"] as const)
      expect(keyRefusal({ enabled: true }, NOW, recorded).fixes).toEqual([]);
  });

  test("the keys table's statuses, the key page's sentence and its fixes agree on every key", () => {
    const keys = fc.record(
      {
        enabled: fc.constantFrom(true, false, undefined),
        expires: fc.constantFrom(undefined, NOW - DAY, NOW, NOW + 1, NOW + 2 * DAY),
        remaining: fc.constantFrom(undefined, null, -1, 0, 1, 500),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(keys, ({ enabled, expires, remaining }) => {
        const key: Key = {
          keyId: "key_1",
          ...(enabled !== undefined && { enabled }),
          ...(expires !== undefined && { expires }),
          ...(remaining !== undefined && { credits: { remaining } }),
        };
        const refused = fieldRefusals(key, NOW);
        const statuses = fieldStatuses(key, NOW).filter((status) => status !== "expiring" && status !== "low-credits");
        expect(statuses).toEqual(refused);
        const sentence = refusalVerdict(key, emptyCounts(), NOW);
        expect(sentence.tone === "refused").toBe(refused.length > 0);
        const fixes = keyRefusal(key, NOW, null).fixes;
        expect(fixes.includes("enable")).toBe(refused.includes("disabled"));
        expect(fixes.includes("extend-expiry")).toBe(refused.includes("expired"));
        expect(fixes.includes("add-credits")).toBe(refused.includes("no-credits"));
      }),
    );
  });
});
