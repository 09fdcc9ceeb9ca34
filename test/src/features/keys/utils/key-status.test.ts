import { describe, expect, test } from "vitest";
import { keyStatuses, statusFacets, usageStatuses } from "@/features/keys/utils/key-status";
import type { Key } from "@/lib/contract";

const NOW = Date.UTC(2026, 5, 15);
const HOUR = 60 * 60 * 1000;

describe("keyStatuses", () => {
  test.each<[string, Key, string[]]>([
    ["an enabled key", { keyId: "key_1", enabled: true }, []],
    ["a disabled key", { keyId: "key_1", enabled: false }, ["disabled"]],
    ["a key past its expiry", { keyId: "key_1", expires: NOW - HOUR }, ["expired"]],
    ["a key expiring within 24 h", { keyId: "key_1", expires: NOW + 23 * HOUR }, ["expiring"]],
    ["a key expiring in two days", { keyId: "key_1", expires: NOW + 48 * HOUR }, []],
    ["out of credits", { keyId: "key_1", credits: { remaining: 0 } }, ["no-credits"]],
    ["low on credits, no refill", { keyId: "key_1", credits: { remaining: 7 } }, ["low-credits"]],
    [
      "under a tenth of its refill",
      { keyId: "key_1", credits: { remaining: 40, refill: { interval: "daily", amount: 500 } } },
      ["low-credits"],
    ],
    [
      "plenty of credits",
      { keyId: "key_1", credits: { remaining: 400, refill: { interval: "daily", amount: 500 } } },
      [],
    ],
    ["unlimited credits", { keyId: "key_1", credits: { remaining: null } }, []],
    ["disabled and expired", { keyId: "key_1", enabled: false, expires: NOW - 1 }, ["disabled", "expired"]],
  ])("%s", (_, key, statuses) => {
    expect(keyStatuses(key, NOW)).toEqual(statuses);
  });

  test("a key with nothing wrong is filtered as 'ok'", () => {
    expect(statusFacets({ keyId: "key_1", enabled: true }, NOW)).toEqual(["ok"]);
  });
});

describe("usageStatuses", () => {
  test("any rate-limited verification in the window", () => {
    expect(usageStatuses({ valid: 100, rateLimited: 1, refused: 1 })).toEqual(["rate-limited"]);
  });
  test("many refusals: at least five, and at least a fifth of all", () => {
    expect(usageStatuses({ valid: 10, rateLimited: 0, refused: 5 })).toEqual(["many-refusals"]);
    expect(usageStatuses({ valid: 100, rateLimited: 0, refused: 5 })).toEqual([]);
    expect(usageStatuses({ valid: 0, rateLimited: 0, refused: 4 })).toEqual([]);
  });
  test("no usage known, no usage badge", () => {
    expect(usageStatuses(undefined)).toEqual([]);
  });
});
