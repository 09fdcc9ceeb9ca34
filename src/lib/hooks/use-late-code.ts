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
