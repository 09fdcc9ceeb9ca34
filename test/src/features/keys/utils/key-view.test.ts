import { describe, expect, test } from "vitest";
import { countText, exactKeyId, filterKeys, statusCountScope } from "@/features/keys/utils/key-view";
import type { Key } from "@/lib/contract";

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
    [25, 3, true, false, "3 of 25 keys shown"],
    [100, 100, false, true, "100 keys loaded, more available"],
    [100, 4, true, true, "4 of 100 loaded keys shown, more not loaded yet"],
    [10000, 10000, false, false, "10,000 keys"],
  ])("%i keys, %i matching, filtering %s, more %s: %s", (total, matching, filtering, hasMore, text) => {
    expect(countText(total, matching, filtering, hasMore)).toBe(text);
  });
});

describe("exactKeyId", () => {
  test("an exact id, trimmed, is looked up; a fragment or another word is not", () => {
    expect(exactKeyId("  key_3FxT9kLm ")).toBe("key_3FxT9kLm");
    expect(exactKeyId("key_")).toBeNull();
    expect(exactKeyId("Billing key_3FxT9kLm")).toBeNull();
    expect(exactKeyId("api_3FxT9kLm")).toBeNull();
  });
});

describe("statusCountScope", () => {
  test.each([
    [35, 35, "", false, "Counted among all 35 keys."],
    [100, 100, "", true, "Counted among the 100 keys looked at so far; more are not loaded."],
    [8, 35, "bill", false, "Counted among the 8 keys that match “bill”, of 35."],
    [
      1,
      100,
      "bill",
      true,
      "Counted among the 1 key that matches “bill”, of the 100 looked at so far; more are not loaded.",
    ],
  ])("%i counted of %i loaded, filter %j, more %s: %s", (counted, loaded, filter, hasMore, text) => {
    expect(statusCountScope(counted, loaded, filter, hasMore)).toBe(text);
  });
});
