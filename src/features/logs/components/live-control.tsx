import type { ReactNode } from "react";
import { Spinner } from "@/components/spinner";
import { formatCount } from "@/lib/format-number";
import { useSecondsUntil } from "@/lib/hooks/use-seconds-until";
import type { LiveLog } from "../hooks/use-live-log";
import { LIVE_POLICY } from "../live-scheduler";
import { formatUtcInstant } from "@/lib/time-range";

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

function minutesLeft(secondsLeft: number): string {
  if (secondsLeft < 60) return `${secondsLeft} s`;
  const minutes = Math.ceil(secondsLeft / 60);
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

/**
 * The Live switch and what it is doing: how often it asks, what it spent of the hour's budget (at most 400 of the
 * workspace's 1,000 analytics queries), paused while the tab is hidden, stopped at the quota until the time the
 * service said. `available`: the range ends now (a range in the past has nothing new to follow).
 */
export function LiveControl({
  live,
  available,
  now,
  renderError,
}: {
  live: LiveLog;
  available: boolean;
  now: number;
  renderError: (error: unknown) => ReactNode;
}) {
  const { state } = live;
  const resumeAt = state.phase === "quota" ? state.resumeAt : null;
  const secondsLeft = useSecondsUntil(resumeAt);
  const waitingForQuota = resumeAt !== null && secondsLeft !== null && secondsLeft > 0;
  const budget = `${formatCount(live.spent)} of at most ${LIVE_POLICY.budgetPerHour} queries this hour, from the workspace's 1,000 an hour that everyone shares`;

  let status: ReactNode;
  if (!available) status = "Live follows a range that ends now: pick a “Last …” range to turn it on.";
  else if (state.phase === "off") status = "Live is off: the log shows what was there when it loaded (or on Refresh).";
  else if (state.phase === "hidden") status = `Live is paused while this tab is hidden (${budget}).`;
  else if (state.phase === "polling" || state.phase === "waiting") {
    // Asking or waiting, the same words (a spinner while it asks): a sentence that changed would move the page.
    const interval = state.intervalMs;
    const quiet = interval > LIVE_POLICY.baseMs;
    status = (
      <>
        {state.phase === "polling" && <Spinner />}
        {quiet
          ? `Nothing new for a while, so Live asks every ${seconds(interval)} instead of every ${seconds(LIVE_POLICY.baseMs)} (${budget}).`
          : `Live asks every ${seconds(interval)}: a verification shows within about that (${budget}).`}
      </>
    );
  } else if (state.phase === "budget")
    status = `Live has used its ${LIVE_POLICY.budgetPerHour} queries of the last hour; it asks again at ${formatUtcInstant(state.nextAt, now)}.`;
  else if (state.phase === "quota")
    status = waitingForQuota
      ? `The workspace has used its analytics queries of the hour, so Live stopped. It can resume at ${formatUtcInstant(state.resumeAt, now)} (in ${minutesLeft(secondsLeft)}).`
      : "The workspace's analytics quota allows queries again: Live can resume.";
  else
    status = state.fatal
      ? "Live stopped: the API refused its query (below)."
      : "Live's last query failed; it tries again shortly.";

  return (
    <div className="log-live">
      <button
        type="button"
        className="button log-live__switch"
        aria-pressed={live.on}
        disabled={!available || waitingForQuota}
        onClick={() => live.setOn(!live.on)}
      >
        <span className="log-live__dot" aria-hidden="true" /> Live
      </button>
      <p className="log-live__status" role="status">
        {status}
      </p>
      {live.on && state.phase === "waiting" && state.quiet && (
        <button type="button" className="button button--small" onClick={live.checkNow}>
          Check now
        </button>
      )}
      {live.error !== null && (state.phase === "failed" || state.phase === "quota") && renderError(live.error)}
    </div>
  );
}
