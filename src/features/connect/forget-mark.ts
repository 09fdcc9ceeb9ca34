/**
 * The mark every Forget key leaves, for the tabs that did not hear it (key-hand-over.ts says why). Free of
 * imports, so that the page's first request (src/first-request/) can tell a forgotten key before the app runs.
 */

/** localStorage: changed by every Forget key, in any tab (a random value: no secret). */
export const FORGET_MARK_ITEM = "keyscope.keyForgotten";
/** sessionStorage: the forget mark that was current when this tab's key was stored. */
export const KEY_MARK_ITEM = "keyscope.keyForgetMark";
/** The mark before any Forget key. */
export const NO_MARK = "none";

/** Whether a Forget key happened, in some tab, after this tab's key was stored. */
export function forgottenSince(keyMark: string | null, currentMark: string | null): boolean {
  return (keyMark ?? NO_MARK) !== (currentMark ?? NO_MARK);
}
