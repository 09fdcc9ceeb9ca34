import { expect, test } from "vitest";
import { returnPathOf } from "@/app/paths";

test("key entry leads back to the page of this app that sent the user there, and to the keys otherwise", () => {
  expect(returnPathOf({ returnTo: "/keys/key_3fAbc9?window=30d#usage" })).toBe("/keys/key_3fAbc9?window=30d#usage");
  expect(returnPathOf({ returnTo: "/troubleshoot" })).toBe("/troubleshoot");
  for (const state of [
    null,
    undefined,
    "/keys/key_1",
    {},
    { returnTo: 3 },
    { returnTo: "https://elsewhere.example/" },
    { returnTo: "//elsewhere.example/x" },
    { returnTo: "/\\elsewhere.example" },
    { returnTo: "/connect?x" },
    { returnTo: "/" },
  ]) {
    expect(returnPathOf(state)).toBe("/keys");
  }
});
