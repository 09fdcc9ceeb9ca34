import { useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import type { LogRow } from "@/lib/analytics-rows";
import type { VerificationCursor } from "@/lib/analytics-sql";
import { ApiError, isApiErrorOf } from "@/lib/api-errors";
import type { Connection } from "@/lib/api/transport";
import { connectionScopeId } from "@/lib/connection-scope";
import { usePageVisible } from "@/lib/hooks/use-page-visible";
import type { LogFilter } from "@/lib/log-sql";
import { pollLive } from "../api/log-queries";
import { LiveScheduler, type LiveState, type PollResult } from "../live-scheduler";

/** Verifications Live found that a burst kept it from listing: counted, not shown, below the row `below`. */
export interface LiveGap {
  /** The request id of the oldest row listed above them. */
  below: string;
  count: number;
  /** Their time span (ms, both included): a view of it lists them. */
  from: number;
  to: number;
}

export interface LiveLog {
  /** The log as shown: what Live found and the pages loaded, newest first, each verification once. */
  rows: readonly LogRow[];
  gaps: readonly LiveGap[];
  /** What Live found newer than the range's end (drawn on the chart too). */
  arrived: readonly LogRow[];
  on: boolean;
  setOn: (on: boolean) => void;
  state: LiveState;
  /** Queries Live started in the last hour. */
  spent: number;
  checkNow: () => void;
  /** Why Live's last query failed, for its panel. */
  error: unknown;
}

/** How long the service asks a workspace over its quota to wait when it does not say (its window is an hour). */
const QUOTA_WINDOW_MS = 3_600_000;

/** When Live's queries of the last hour started, per connection: one budget for the tab, whatever the view. */
const sentByConnection = new Map<string, number[]>();

function sentOf(connection: Connection): number[] {
  const scope = connectionScopeId(connection);
  let sent = sentByConnection.get(scope);
  if (sent === undefined) {
    sent = [];
    sentByConnection.set(scope, sent);
  }
  return sent;
}

function isNewer(row: VerificationCursor, than: VerificationCursor): boolean {
  return row.time > than.time || (row.time === than.time && row.requestId > than.requestId);
}

function byNewest(a: VerificationCursor, b: VerificationCursor): number {
  return b.time - a.time || (a.requestId < b.requestId ? 1 : a.requestId > b.requestId ? -1 : 0);
}

/** Two lists of verifications newest first as one, each once (a row found by Live and by a page is one row). */
export function mergeNewestFirst(first: readonly LogRow[], second: readonly LogRow[]): LogRow[] {
  if (first.length === 0) return [...second];
  const seen = new Set<string>();
  return [...first, ...second].sort(byNewest).filter((row) => {
    if (seen.has(row.requestId)) return false;
    seen.add(row.requestId);
    return true;
  });
}

interface Found {
  /** The view the rows belong to: another view starts with none. */
  view: string;
  rows: LogRow[];
  gaps: LiveGap[];
}

/** Live's queries that started in the last hour from this tab, for this connection. */
function liveSpent(connection: Connection, now: number): number {
  const sent = sentOf(connection);
  const hourAgo = now - QUOTA_WINDOW_MS;
  return sent.filter((time) => time > hourAgo).length;
}

/** Turns the answer's failure into what the schedule does next: stop at the quota or for good, or try later. */
function failureOf(error: unknown): PollResult {
  if (isApiErrorOf(error, "too_many_requests:query_quota_exceeded"))
    return { kind: "quota", resumeAt: error.retryAt ?? error.receivedAt + QUOTA_WINDOW_MS };
  // A refusal of the request itself (a permission, the query, the key) will not pass by asking again; 429 and 5xx may.
  const fatal = error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
  return { kind: "failed", fatal };
}

/**
 * Live: new verifications of the view every few seconds while it is on and the tab is visible (LiveScheduler says
 * when), merged into the loaded pages in their place. `view` names what the rows belong to; `pages` are the rows
 * loaded; `end` is the range's end when it was resolved (Live starts after it when nothing is loaded).
 */
export function useLiveLog({
  connection,
  view,
  filter,
  pages,
  end,
  available,
  now,
}: {
  connection: Connection;
  /** The page's clock, for what Live spent in the hour before it. */
  now: number;
  view: string;
  filter: Omit<LogFilter, "to">;
  pages: readonly LogRow[];
  end: number;
  /** The range ends now (a preset): a range in the past has nothing new to follow. */
  available: boolean;
}): LiveLog {
  const [wanted, setWanted] = useState(false);
  const on = wanted && available;
  const [found, setFound] = useState<Found>({ view, rows: [], gaps: [] });
  const current = found.view === view ? found : { view, rows: [], gaps: [] };
  const rows = useMemo(() => mergeNewestFirst(current.rows, pages), [current.rows, pages]);
  const [state, setState] = useState<LiveState>({ phase: "off" });
  const [error, setError] = useState<unknown>(null);
  const visible = usePageVisible();

  // What a query reads when it starts and when its answer comes: the newest row then, and whether the view is still this one.
  const latest = useRef({ view, rows, end });
  useEffect(() => {
    latest.current = { view, rows, end };
  });

  const poll = useEffectEvent(async (asked: string): Promise<PollResult> => {
    const top = latest.current.rows[0];
    const newest: VerificationCursor = top ?? { time: latest.current.end, requestId: "" };
    try {
      const answer = await pollLive(connection, filter, newest);
      if (latest.current.view !== asked) return { kind: "rows", arrived: 0 };
      setError(null);
      const known = new Set(latest.current.rows.map((row) => row.requestId));
      const fresh = answer.rows.filter((row) => !known.has(row.requestId));
      const listedNewer = answer.rows.filter((row) => isNewer(row, newest));
      const skipped = answer.newer - listedNewer.length;
      const oldestListed = listedNewer.at(-1);
      setFound((previous) => {
        const base = previous.view === asked ? previous : { view: asked, rows: [], gaps: [] };
        return {
          view: asked,
          rows: mergeNewestFirst(fresh, base.rows),
          gaps:
            skipped > 0 && oldestListed !== undefined
              ? [
                  ...base.gaps,
                  { below: oldestListed.requestId, count: skipped, from: newest.time, to: oldestListed.time },
                ]
              : base.gaps,
        };
      });
      return { kind: "rows", arrived: fresh.length };
    } catch (caught) {
      if (latest.current.view !== asked) return { kind: "rows", arrived: 0 };
      setError(caught);
      return failureOf(caught);
    }
  });

  // The schedule stops by itself at the quota or at a refusal: Live is off then, and says why until turned on again.
  const [stoppedBy, setStoppedBy] = useState<LiveState | null>(null);
  const schedulerRef = useRef<LiveScheduler | null>(null);
  // Turned on: ask at once. A new view while on: its pages were just loaded, so the usual wait first.
  const startAtOnce = useRef(true);
  useEffect(() => {
    if (!on) return;
    const scheduler = new LiveScheduler(
      () => poll(view),
      (next) => {
        setState(next);
        if (next.phase === "quota" || (next.phase === "failed" && next.fatal)) {
          setStoppedBy(next);
          setWanted(false);
        }
      },
      undefined,
      undefined,
      sentOf(connection),
    );
    schedulerRef.current = scheduler;
    scheduler.setVisible(document.visibilityState !== "hidden");
    scheduler.start({ immediately: startAtOnce.current });
    startAtOnce.current = false;
    return () => {
      scheduler.stop();
      schedulerRef.current = null;
    };
  }, [on, view, connection]);
  useEffect(() => {
    schedulerRef.current?.setVisible(visible);
  }, [visible]);
  const shownState: LiveState = on ? state : (stoppedBy ?? { phase: "off" });

  const arrived = useMemo(() => current.rows.filter((row) => row.time > end), [current.rows, end]);
  return {
    rows,
    gaps: current.gaps,
    arrived,
    on,
    setOn: (next) => {
      if (next) {
        setError(null);
        setStoppedBy(null);
        startAtOnce.current = true;
      }
      setWanted(next);
    },
    state: shownState,
    spent: liveSpent(connection, now),
    checkNow: () => schedulerRef.current?.checkNow(),
    error,
  };
}
