import { describe, expect, test } from "vitest";
import { fingerprint } from "@/lib/fingerprint";

describe("fingerprint", () => {
  test("is short, hexadecimal and stable", () => {
    const tag = fingerprint("ks_root_3fAbc9XyZ12");
    expect(tag).toMatch(/^[0-9a-f]{14}$/);
    expect(fingerprint("ks_root_3fAbc9XyZ12")).toBe(tag);
  });

  test("tells keys apart that differ in one character", () => {
    expect(fingerprint("ks_root_aaaaaaaa")).not.toBe(fingerprint("ks_root_aaaaaaab"));
  });

  test("holds no part of the key", () => {
    const key = "ks_root_3fAbc9XyZ12";
    const tag = fingerprint(key);
    for (let length = 4; length <= key.length; length++) expect(tag).not.toContain(key.slice(0, length));
  });
});
