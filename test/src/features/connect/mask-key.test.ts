import { expect, test } from "vitest";
import { maskKey } from "../../../../src/features/connect/mask-key";

test("a key shows its first 8 characters and an ellipsis", () => {
  expect(maskKey("ks_root_3fAbc9XyZ12QwErTy")).toBe("ks_root_…");
});

test("a short key shows at most half of itself", () => {
  expect(maskKey("abcdefghij")).toBe("abcde…");
  expect(maskKey("ab")).toBe("a…");
});
