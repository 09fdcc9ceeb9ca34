import { Spinner } from "@/components/spinner";
import { formatCountOf } from "@/lib/format-number";
import type { LoadPurpose, LoadState } from "../hooks/use-keys-loader";

interface LoadProgressProps {
  state: LoadState;
  loaded: number;
  secondsLeft: number | null;
  /** The filter a search is looking for. */
  filter: string;
  /** How many keys a refresh loads again. */
  reloading: number;
  onStop: () => void;
  onContinue: () => void;
}

function goal(purpose: LoadPurpose, filter: string, reloading: number): string {
  switch (purpose) {
    case "refresh":
      return `Refreshing the ${formatCountOf(reloading, "key")} that were loaded`;
    case "search":
      return `Looking for “${filter}”`;
    case "export":
      return "Loading every key for the export";
    case "all":
      return "Loading every key";
    case "more":
      return "Loading more keys";
  }
}

/**
 * Where a load of many pages stands: how many keys so far, why it waits (a rate limit, no connection), and a
 * way to stop it or go on. A load never ends without a word here.
 */
export function LoadProgress({ state, loaded, secondsLeft, filter, reloading, onStop, onContinue }: LoadProgressProps) {
  if (state.phase === "idle" || (state.phase === "loading" && state.purpose === "more")) return null;
  if (state.phase === "done" || state.phase === "failed") {
    if (
      state.phase === "failed" ||
      (state.purpose !== "all" && state.purpose !== "export" && state.purpose !== "refresh")
    )
      return null;
    return (
      <p className="keys-progress" role="status">
        {state.purpose === "refresh"
          ? `${formatCountOf(loaded, "key")} refreshed.`
          : `All ${formatCountOf(loaded, "key")} loaded.`}
      </p>
    );
  }
  const { purpose } = state;
  let text: string;
  switch (state.phase) {
    case "loading":
      text =
        purpose === "search"
          ? `${goal(purpose, filter, reloading)}: ${formatCountOf(loaded, "key")} looked at, none matches yet.`
          : `${goal(purpose, filter, reloading)}: ${formatCountOf(loaded, "key")} so far.`;
      break;
    case "rate-limited":
      text = `The API's rate limit is reached at ${formatCountOf(loaded, "key")}; loading goes on in ${secondsLeft ?? 0} s.`;
      break;
    case "offline":
      text = `Offline at ${formatCountOf(loaded, "key")}; loading goes on when the connection is back.`;
      break;
    case "stopped":
      text =
        purpose === "search"
          ? `Stopped looking for “${filter}” after ${formatCountOf(loaded, "key")}; none matches. More keys are not loaded.`
          : `Stopped at ${formatCountOf(loaded, "key")}; more keys are not loaded.`;
      break;
  }
  const active = state.phase !== "stopped";
  return (
    <div className="keys-progress" role="status">
      {active && <Spinner />}
      <span>{text}</span>
      {active ? (
        <button type="button" className="button button--small" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="button" className="button button--small" onClick={onContinue}>
          {purpose === "search" ? "Keep looking" : "Continue"}
        </button>
      )}
    </div>
  );
}
