import { useEffect, useState } from "react";

export type LateCodeState = "loading" | "loaded" | "failed";

/**
 * Loads code the first screen does without (a RetryableModule or RetryableLazy) after the first commit, so the
 * first rows do not wait for it; "failed" until a Retry (RetryLoadButton) when it could not be loaded.
 */
export function useLateCode(code: { preload(): Promise<void>; isLoaded(): boolean }): [LateCodeState, () => void] {
  const [state, setState] = useState<LateCodeState>(() => (code.isLoaded() ? "loaded" : "loading"));
  useEffect(() => {
    if (state !== "loading") return;
    let current = true;
    void code.preload().then(() => {
      if (current) setState(code.isLoaded() ? "loaded" : "failed");
    });
    return () => {
      current = false;
    };
  }, [state, code]);
  return [state, () => setState("loading")];
}

/**
 * As useLateCode, for code whose arrival changes nothing on screen (it is read when it is next needed): it starts
 * loading after the first commit and renders again only if it could not be loaded. Returns that, and the Retry.
 */
export function useLateCodeFailure(code: { preload(): Promise<void>; isLoaded(): boolean }): [boolean, () => void] {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (failed) return;
    let current = true;
    void code.preload().then(() => {
      if (current && !code.isLoaded()) setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [failed, code]);
  return [failed, () => setFailed(false)];
}
