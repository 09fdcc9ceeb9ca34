import { useState } from "react";
import type { Connection } from "@/lib/api/transport";
import { connectionScopeId } from "@/lib/connection-scope";
import { resolveRange, type RangeChoice, type ResolvedRange } from "@/lib/time-range";

/**
 * When each view's range was resolved, in this tab: stepping Back to a view shows it as it was read (its answers are
 * still cached), until Refresh reads it again. A preset ends at that moment; a custom range is what it says.
 */
const resolvedAt = new Map<string, number>();
const KEPT = 100;

function resolvedAtOf(key: string): number {
  let at = resolvedAt.get(key);
  if (at === undefined) {
    at = Date.now();
    resolvedAt.set(key, at);
    if (resolvedAt.size > KEPT) resolvedAt.delete(resolvedAt.keys().next().value ?? key);
  }
  return at;
}

export function useResolvedRange(
  connection: Connection,
  choice: RangeChoice,
  dataKey: string,
): { range: ResolvedRange; at: number; refresh: () => void } {
  const key = `${connectionScopeId(connection)} ${dataKey}`;
  const [, rerender] = useState(0);
  const at = resolvedAtOf(key);
  return {
    range: resolveRange(choice, at),
    at,
    refresh: () => {
      resolvedAt.set(key, Date.now());
      rerender((count) => count + 1);
    },
  };
}
