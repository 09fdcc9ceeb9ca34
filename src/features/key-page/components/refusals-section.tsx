import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Loading } from "@/components/offline-notice";
import { SafeName } from "@/components/safe-name";
import { Spinner } from "@/components/spinner";
import { sqlString } from "@/lib/analytics-sql";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import type { AnalyticsOutcome } from "@/lib/verification-outcomes";
import { useRefusals } from "../api/key-analytics";
import { RefusalTagFilter } from "./refusal-tag-filter";
import { RefusalsTable } from "./refusals-table";

export interface RefusalsSectionProps {
  connection: Connection;
  keyId: string;
  apiKey: Key;
  now: number;
  lookupHref: (requestId?: string) => string;
  renderExplanation: (outcome: AnalyticsOutcome, apiKey: Key, latest: number) => ReactNode;
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
}

/**
 * A key's refused verifications, newest first, a page at a time, filtered by a tag: why each outcome refused (once,
 * with its newest refusal), then the list.
 */
export function RefusalsSection(props: RefusalsSectionProps) {
  const { connection, keyId, apiKey, now, lookupHref, renderExplanation, renderAnalyticsError } = props;
  const [tag, setTag] = useState<string | undefined>(undefined);
  const check = tag === undefined ? null : sqlString(tag);
  const tagLiteral = check?.ok ? check.literal : undefined;
  const query = useRefusals(connection, keyId, tagLiteral, check === null || check.ok);
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const rowsRef = useRef<HTMLTableSectionElement>(null);
  // The row the page asked for by Show older starts at: the last page removes the button, and its focus goes on to
  // that row's link rather than to the page's start (where a keyboard user would have to tab back from).
  const olderFrom = useRef<number | null>(null);
  useEffect(() => {
    const from = olderFrom.current;
    if (from === null || query.isFetchingNextPage) return;
    olderFrom.current = null;
    if (query.hasNextPage || (document.activeElement !== null && document.activeElement !== document.body)) return;
    rowsRef.current?.children[from]?.querySelector("a")?.focus();
  }, [query.isFetchingNextPage, query.hasNextPage]);
  // Each outcome once, with its newest refusal (the list is newest first).
  const outcomes = useMemo(() => {
    const latest = new Map<AnalyticsOutcome, number>();
    for (const item of items) if (!latest.has(item.outcome)) latest.set(item.outcome, item.time);
    return [...latest];
  }, [items]);

  return (
    <div className="refusals">
      <RefusalTagFilter filtered={tag !== undefined} onFilter={setTag} />
      {check !== null && !check.ok ? (
        <p className="key-page__notice" role="alert">
          {check.reason}
        </p>
      ) : query.isError && items.length === 0 ? (
        renderAnalyticsError(query.error, () => void query.refetch())
      ) : query.data === undefined ? (
        <p role="status">
          <Loading>Loading refused verifications…</Loading>
        </p>
      ) : items.length === 0 ? (
        <p className="usage__empty">
          No refused verifications
          {tag === undefined ? (
            ""
          ) : (
            <>
              {" "}
              with the tag “<SafeName>{tag}</SafeName>”
            </>
          )}
          .
        </p>
      ) : (
        <>
          <div className="refusals__why">
            <h3>Why they were refused</h3>
            {outcomes.map(([outcome, latest]) => (
              <div key={outcome} className="refusals__explanation" data-outcome={outcome}>
                {renderExplanation(outcome, apiKey, latest)}
              </div>
            ))}
          </div>
          <RefusalsTable items={items} now={now} lookupHref={lookupHref} bodyRef={rowsRef} />
          {query.isError && renderAnalyticsError(query.error, () => void query.fetchNextPage())}
          {query.hasNextPage && (
            <button
              type="button"
              className="button"
              aria-disabled={query.isFetchingNextPage}
              onClick={() => {
                if (query.isFetchingNextPage) return;
                olderFrom.current = items.length;
                void query.fetchNextPage();
              }}
            >
              {query.isFetchingNextPage ? (
                <>
                  <Spinner /> Loading…
                </>
              ) : (
                "Show older"
              )}
            </button>
          )}
        </>
      )}
    </div>
  );
}
