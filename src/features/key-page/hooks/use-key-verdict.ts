import { useMemo } from "react";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { useTickAt } from "@/lib/hooks/use-now";
import { dominantRefusal } from "@/lib/key-refusal";
import type { AnalyticsOutcome } from "@/lib/verification-outcomes";
import { useKeyUsage, useRefusals } from "../api/key-analytics";
import { refusalVerdict, verdictTurnsAt, type Verdict } from "../refusal-sentence";
import { usageSeries } from "@/lib/usage-series";

export interface KeyVerdict {
  verdict: Verdict;
  /** The last 24 hours' outcomes are on their way (the sentence says what the fields say meanwhile). */
  pending: boolean;
  /** The refusal most of the last 24 hours' verifications got, when there is one: what the fixes answer. */
  refusedAs: AnalyticsOutcome | null;
}

/**
 * The verdict on the key `keyId` names (`apiKey`, as the service answered) from its fields and its last 24 hours of
 * outcomes (`analyzable`: the id may go into an analytics query), kept on time: the page's clock ticks once a minute, and ticks at the key's expiry and at the reset of the
 * window that refused it too, or they would be said late.
 */
export function useKeyVerdict(
  connection: Connection,
  keyId: string,
  apiKey: Key,
  now: number,
  analyzable: boolean,
): KeyVerdict {
  const day = useKeyUsage(connection, keyId, "24h", analyzable);
  const dayCounts = useMemo(
    () => (day.data === undefined ? null : usageSeries(day.data, "24h", day.dataUpdatedAt).totals),
    [day.data, day.dataUpdatedAt],
  );
  // The newest refusals (the list below, one query): when the last one of an outcome was, for a rate limit's reset.
  const refusals = useRefusals(connection, keyId, undefined, analyzable);
  const latest = useMemo(() => {
    const items = refusals.data?.pages.flatMap((page) => page.items) ?? [];
    return (outcome: AnalyticsOutcome) => items.find((item) => item.outcome === outcome)?.time;
  }, [refusals.data]);
  const pending = day.isPending && analyzable;
  useTickAt(verdictTurnsAt(apiKey, now, latest));
  return {
    verdict: refusalVerdict(apiKey, pending ? "pending" : dayCounts, now, latest),
    pending,
    refusedAs: dayCounts === null ? null : dominantRefusal(dayCounts),
  };
}
