import { act, renderHook } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import {
  readConnection,
  readTarget,
  removeStoredKey,
  saveConnection,
  useConnection,
} from "@/features/connect/key-store";

const KEY = "ks_root_3fAbc9XyZ12";
const BASE_URL = "http://127.0.0.1:8799";

describe("the key store", () => {
  test("keeps the key and base URL in sessionStorage and nowhere else", () => {
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    expect(readConnection()).toEqual({ baseUrl: BASE_URL, apiKey: KEY });
    expect(Object.values({ ...sessionStorage })).toContain(KEY);
    expect(localStorage.length).toBe(0);
    expect(window.location.href).not.toContain(KEY);
  });

  test("reads nothing when nothing is stored", () => {
    expect(readConnection()).toBeNull();
    expect(readTarget()).toBeNull();
  });

  test("removing the key clears it and keeps the base URL for re-entry", () => {
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    removeStoredKey();
    expect(readConnection()).toBeNull();
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(KEY);
    expect(readTarget()?.baseUrl).toBe(BASE_URL);
  });

  test("gives React the same snapshot until something changes", () => {
    saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
    expect(readConnection()).toBe(readConnection());
  });

  test("useConnection follows saves and removals", () => {
    const { result } = renderHook(() => useConnection());
    expect(result.current).toBeNull();
    act(() => saveConnection({ baseUrl: BASE_URL, apiKey: KEY }));
    expect(result.current).toEqual({ baseUrl: BASE_URL, apiKey: KEY });
    act(() => removeStoredKey());
    expect(result.current).toBeNull();
  });

  test("a browser that blocks storage reads as no key", () => {
    const spy = vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    expect(readConnection()).toBeNull();
    spy.mockRestore();
  });
});
