import type { QueryClient } from "@tanstack/react-query";
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";

/**
 * A new QueryClient for every test of the file, and a viewport the virtualized table can lay rows out in
 * (happy-dom has no layout). Returns the current test's client.
 */
export function freshQueryClientPerTest(): () => QueryClient {
  let queryClient: QueryClient | undefined;
  beforeEach(() => {
    queryClient = createQueryClient();
    vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1024);
  });
  afterEach(() => {
    // Unmount first: this hook runs before setup.ts's cleanup, and a query still mounted when its cache is
    // cleared fetches again, through the real fetch once the stub is gone (ECONNREFUSED after the test).
    cleanup();
    queryClient?.clear();
    vi.unstubAllGlobals();
  });
  return () => {
    if (queryClient === undefined) throw new Error("the query client exists only inside a test");
    return queryClient;
  };
}
