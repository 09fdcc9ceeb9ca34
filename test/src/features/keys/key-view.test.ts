import { describe, expect, test } from "vitest";
import { columnsFor, countText, filterKeys, keyStatus } from "../../../../src/features/keys/key-view";
import type { Key } from "../../../../src/lib/contract";

const NOW = Date.UTC(2026, 5, 15);
const DAY = 24 * 60 * 60 * 1000;

describe("keyStatus", () => {
  test.each<[string, Key, ReturnType<typeof keyStatus>]>([
    ["an enabled key", { keyId: "key_1", name: "a", enabled: true }, "enabled"],
    ["a disabled key", { keyId: "key_1", name: "a", enabled: false }, "disabled"],
    ["a key past its expiry", { keyId: "key_1", name: "a", enabled: true, expires: NOW - DAY }, "expired"],
    ["a disabled key past its expiry", { keyId: "key_1", name: "a", enabled: false, expires: NOW - 1 }, "expired"],
    ["a key expiring later", { keyId: "key_1", name: "a", expires: NOW + DAY }, "enabled"],
    ["a key the API said nothing about", { keyId: "key_1", name: "a" }, null],
  ])("%s", (_, key, status) => {
    expect(keyStatus(key, NOW)).toBe(status);
  });
});

describe("columnsFor", () => {
  test("only the fields some key carries", () => {
    expect(columnsFor([{ keyId: "key_1", name: "a" }])).toEqual([]);
    expect(columnsFor([{ keyId: "key_1", name: "a", start: "sk_" }, { keyId: "key_2", name: "b", createdAt: NOW }])).toEqual([
      "start",
      "createdAt",
    ]);
    expect(columnsFor([{ keyId: "key_1", name: "a", expires: NOW }])).toEqual(["status", "expires"]);
  });
});

describe("filterKeys", () => {
  const keys: Key[] = [
    { keyId: "key_Abc", name: "Billing worker", start: "sk_live_3f" },
    { keyId: "key_Def", name: "Checkout", start: "sk_test_9x" },
  ];

  test.each([
    ["by name, ignoring case", "billing", ["key_Abc"]],
    ["by id", "key_def", ["key_Def"]],
    ["by prefix", "sk_test", ["key_Def"]],
    ["nothing filters nothing", "  ", ["key_Abc", "key_Def"]],
    ["no match", "zzz", []],
  ])("%s", (_, query, ids) => {
    expect(filterKeys(keys, query).map((key) => key.keyId)).toEqual(ids);
  });
});

describe("countText", () => {
  test.each([
    [25, 25, false, false, "25 keys"],
    [1, 1, false, false, "1 key"],
    [25, 3, true, false, "3 of 25 keys match"],
    [25, 1, true, false, "1 of 25 keys matches"],
    [100, 100, false, true, "100 keys loaded, more available"],
    [100, 4, true, true, "4 of 100 keys loaded match"],
    [10000, 10000, false, false, "10,000 keys"],
  ])("%i keys, %i matching, filtering %s, more %s: %s", (total, matching, filtering, hasMore, text) => {
    expect(countText(total, matching, filtering, hasMore)).toBe(text);
  });
});
