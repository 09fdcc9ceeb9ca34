import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

// findBy…/waitFor wait up to 10 s instead of 1 s: on a busy machine a lazy module (the error panel, a route) can
// take longer than a second to load. A check that passes still returns as soon as it does.
configure({ asyncUtilTimeout: 10_000 });

// A component test fails on any console.error it did not expect: React warnings are bugs.
let consoleErrors: unknown[][] = [];

beforeEach(() => {
  consoleErrors = [];
  // Component tests reach no network: a test that needs answers stubs fetch itself. Without this, a request nobody
  // stubbed went to happy-dom's own origin (http://localhost:3000) and met whatever listens there, if anything.
  vi.stubGlobal("fetch", () => Promise.reject(new TypeError("Failed to fetch (component tests reach no network)")));
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  const unexpected = consoleErrors;
  vi.restoreAllMocks();
  // Files share a worker's module graph and window (vite.config.ts): nothing a test stubbed outlives it.
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.useRealTimers();
  if (unexpected.length > 0) {
    throw new Error(`unexpected console.error:\n${unexpected.map((args) => args.map(String).join(" ")).join("\n")}`);
  }
});

/** For a test that provokes a console.error on purpose: take the ones seen so far so they do not fail it. */
export function takeConsoleErrors(): unknown[][] {
  const seen = consoleErrors;
  consoleErrors = [];
  return seen;
}
