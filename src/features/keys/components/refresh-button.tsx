import { Spinner } from "@/components/spinner";

interface RefreshButtonProps {
  refreshing: boolean;
  /** Seconds until the API allows a request again; the button waits with it. */
  waitSeconds: number | null;
  onRefresh: () => void;
}

export function RefreshButton({ refreshing, waitSeconds, onRefresh }: RefreshButtonProps) {
  const blocked = refreshing || waitSeconds !== null;
  return (
    // aria-disabled rather than disabled: the button keeps focus while the refresh runs.
    <button
      type="button"
      className="button keys-toolbar__refresh"
      onClick={blocked ? undefined : onRefresh}
      aria-disabled={blocked}
    >
      {refreshing ? (
        <>
          <Spinner /> Refreshing…
        </>
      ) : waitSeconds !== null ? (
        <>
          <RefreshIcon /> Refresh in {waitSeconds} s
        </>
      ) : (
        <>
          <RefreshIcon /> Refresh
        </>
      )}
    </button>
  );
}

function RefreshIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true">
      <path
        d="M16 10a6 6 0 1 1-1.76-4.24M16 4v3.5h-3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
