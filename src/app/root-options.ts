import type { RootOptions } from "react-dom/client";
import { isKeyscopeError } from "../lib/api-errors";

/**
 * React reports errors its boundaries caught to the console. An API's refusal is an answer the panel
 * already explains, not a bug, and the console is no place for anything near the key; a real bug is
 * reported as an uncaught error so devtools and tests still see it.
 */
export const rootOptions: RootOptions = {
  onCaughtError(error) {
    if (isKeyscopeError(error)) return;
    if (typeof globalThis.reportError === "function") globalThis.reportError(error);
  },
};
