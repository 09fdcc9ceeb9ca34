import { Spinner } from "@/components/spinner";

interface LoadMoreButtonProps {
  busy: boolean;
  canLoad: boolean;
  online: boolean;
  /** Seconds before the API may be asked again, or null. */
  waitSeconds: number | null;
  onLoadMore: () => void;
}

export function LoadMoreButton({ busy, canLoad, online, waitSeconds, onLoadMore }: LoadMoreButtonProps) {
  return (
    <div className="keys-list__more">
      <button type="button" className="button" onClick={onLoadMore} aria-disabled={busy || !canLoad}>
        {busy ? (
          <>
            <Spinner /> Loading more…
          </>
        ) : !online ? (
          "Load more (offline)"
        ) : waitSeconds !== null ? (
          `Load more in ${waitSeconds} s`
        ) : (
          "Load more"
        )}
      </button>
    </div>
  );
}
