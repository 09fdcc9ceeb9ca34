import { useEffect, useSyncExternalStore } from "react";
import type { CodeStatus, RetryableModule } from "../retryable-lazy";

type LateCode = Pick<RetryableModule<unknown>, "preload" | "status" | "subscribe">;
type LateCodeStatus = Exclude<CodeStatus, "idle">;

/** A start is not announced (retryableModule's subscribe), so "idle" reads as "loading" here. */
const shown = (status: CodeStatus): LateCodeStatus => (status === "idle" ? "loading" : status);

/**
 * Loads code the first screen does without (a RetryableModule or RetryableLazy) after the first commit, so the
 * first rows do not wait for it, and again after each reset of a failed load (a Retry, a navigation); returns
 * where it stands, or what `select` reads of that (a value compared with Object.is): the component renders
 * again only when that changes.
 */
export function useLateCode(code: LateCode): LateCodeStatus;
export function useLateCode<T>(code: LateCode, select: (status: LateCodeStatus) => T): T;
export function useLateCode<T>(code: LateCode, select?: (status: LateCodeStatus) => T): T | LateCodeStatus {
  useEffect(() => {
    const loadIfIdle = () => {
      if (code.status() === "idle") void code.preload();
    };
    loadIfIdle();
    return code.subscribe(loadIfIdle);
  }, [code]);
  return useSyncExternalStore(code.subscribe, () =>
    select === undefined ? shown(code.status()) : select(shown(code.status())),
  );
}
