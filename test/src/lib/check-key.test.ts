import { describe, expect, test } from "vitest";
import { checkKey } from "@/lib/check-key";

const KEY = "ks_root_3fAbc9XyZ12";

describe("checkKey", () => {
  test.each([
    ["a clean key", KEY, []],
    ["surrounding whitespace is trimmed", `  ${KEY}\n`, ["trimmed-whitespace"]],
    ["a pasted Bearer prefix is removed", `Bearer ${KEY}`, ["removed-bearer-prefix"]],
    ["a lower-case bearer prefix is removed", `bearer   ${KEY}`, ["removed-bearer-prefix"]],
    [
      "a whole Authorization header is reduced to the key",
      `Authorization: Bearer ${KEY}`,
      ["removed-authorization-header"],
    ],
    ["a header without Bearer is reduced to the key", `authorization:${KEY}`, ["removed-authorization-header"]],
    ["whitespace and a prefix together", `\t Bearer ${KEY}  `, ["trimmed-whitespace", "removed-bearer-prefix"]],
  ])("%s", (_, input, fixes) => {
    expect(checkKey(input)).toEqual({ ok: true, key: KEY, fixes });
  });

  test.each([
    ["an empty field is refused", "", "empty", /enter an api key/i],
    ["only whitespace is refused as empty", "  \n ", "empty", /enter an api key/i],
    ["the word Bearer alone is refused", "Bearer ", "only-bearer", /only the word/i],
    ["double quotes around the key are refused", `"${KEY}"`, "quoted", /wrapped in quotes/i],
    ["single quotes around the key are refused", `'${KEY}'`, "quoted", /wrapped in quotes/i],
    ["a quote inside the key is refused", `${KEY}",`, "contains-quote", /contains a quote/i],
    ["inner whitespace is refused", "ks_root_abc def", "contains-whitespace", /contains a space/i],
    [
      "a tab inside the key is named as a tab, not a space",
      "ks_root_abc\tdef",
      "contains-whitespace",
      /contains a tab after/,
    ],
    [
      "a no-break space is named by its code point",
      "ks_root_abc\u00a0def",
      "contains-whitespace",
      /contains a blank character \(U\+00A0\)/,
    ],
    ["a line break is refused", "ks_root_abc\ndef", "contains-line-break", /line break/i],
    ["a Windows line break is refused", "ks_root_abc\r\ndef", "contains-line-break", /line break/i],
    [
      "a zero-width space is refused",
      "ks_root_abc\u200bdef",
      "contains-invisible-character",
      /invisible character \(U\+200B\)/,
    ],
    ["a shortened key from a screen is refused", "ks_root_…", "masked", /shortened key/i],
    ["a non-ASCII character is refused", "ks_root_abc–def", "contains-non-ascii", /U\+2013/],
  ])("%s", (_, input, problem, reason) => {
    const check = checkKey(input);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problem).toBe(problem);
    expect(check.reason).toMatch(reason);
  });

  test("a refusal still reports what was fixed before it", () => {
    const check = checkKey(`Bearer "${KEY}"`);
    expect(check).toMatchObject({ ok: false, problem: "quoted", fixes: ["removed-bearer-prefix"] });
  });

  test("a key that merely starts with the letters bearer is left alone", () => {
    expect(checkKey("bearer_token_123")).toEqual({ ok: true, key: "bearer_token_123", fixes: [] });
  });
});
