import { expect, test } from "vitest";
import { maskKey } from "@/features/connect/mask-key";

test("a key shows its start and its last four characters, enough to tell two keys apart", () => {
  expect(maskKey("ks_root_3xYbc9XyZ12QwErTyPmK7uH5aZ9fQ2")).toBe("ks_root_3xY…9fQ2");
  expect(maskKey("ks_root_3xYbc9XyZ12QwErTyPmK7uH5aZ9fQ2")).not.toBe(maskKey("ks_root_3xYbc9XyZ12QwErTyPmK7uH5aZAAAA"));
});

test("a short key shows at most half of itself", () => {
  for (const key of ["abcdefghij", "ab", "a", "", "ks_root_3fAbc9XyZ12", "0123456789abcdefghijklmnopqrstu"]) {
    const shown = maskKey(key).replace("…", "");
    expect(shown.length).toBeLessThanOrEqual(Math.floor(key.length / 2));
  }
  expect(maskKey("abcdefghij")).toBe("abcd…j");
  expect(maskKey("ab")).toBe("a…");
});
