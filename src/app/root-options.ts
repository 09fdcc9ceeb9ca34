import type { RootOptions } from "react-dom/client";
import { isKeyscopeError } from "../lib/api-errors";

/**
 * An error a boundary caught (React's or the router's). An API's refusal (or code that did not arrive) is an
 * answer the panel already explains, not a bug, and the console is no place for anything near the key; a real
 * bug is reported as an uncaught error so devtools and tests still see it.
 */
export function reportCaughtError(error: unknown): void {
  if (isKeyscopeError(error)) return;
  if (typeof globalThis.reportError === "function") globalThis.reportError(error);
}

export const rootOptions: RootOptions = {
  onCaughtError(error) {
    reportCaughtError(error);
  },
};
