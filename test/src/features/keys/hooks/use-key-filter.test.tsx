import { act, renderHook } from "@testing-library/react";
import { expect, test } from "vitest";
import { useKeyFilter } from "@/features/keys/hooks/use-key-filter";
import type { Key } from "@/lib/contract";

const KEYS: Key[] = [
  { keyId: "key_Alpha1", name: "Checkout service", start: "ks_ab", createdAt: 0, enabled: true },
  { keyId: "key_Beta22", name: "Billing", start: "ks_cd", createdAt: 0, enabled: true },
];

test("the filter narrows the loaded keys by name, trimmed, and says whether it filters", () => {
  const { result } = renderHook(() => useKeyFilter(KEYS));
  expect(result.current.filtering).toBe(false);
  expect(result.current.matches).toHaveLength(2);
  act(() => result.current.setText("  billing "));
  expect(result.current.text).toBe("  billing ");
  expect(result.current.query).toBe("billing");
  expect(result.current.filtering).toBe(true);
  expect(result.current.matches.map((key) => key.keyId)).toEqual(["key_Beta22"]);
});
