import { Spinner } from "@/components/spinner";
import { formatCount, formatCountOf } from "@/lib/format-number";
import type { UsageTotals } from "../api/get-usage-totals";
import { USAGE_WINDOW_HOURS } from "../utils/usage";

/** What the usage sort is based on, said while it is being fetched and once it is in: never a silent partial sort. */
export function UsageSortNote({ totals, hasMore }: { totals: UsageTotals; hasMore: boolean }) {
  const { totals: known, counted, loaded, fetching, error, retry } = totals;
  const window = `${USAGE_WINDOW_HOURS}-hour usage`;
  const notLoaded = hasMore ? " Keys not loaded yet are not part of the order." : "";
  if (known === undefined) {
    return (
      <p className={error === null ? "keys-notice" : "keys-notice keys-notice--warn"} role="status">
        {error === null ? (
          <>
            <Spinner /> Fetching the {window} of the {formatCountOf(loaded, "loaded key")} to sort them by it; until
            then they keep their loaded order.
          </>
        ) : (
          <>
            <span>
              <strong>Cannot sort by usage:</strong> the {window} of the {formatCountOf(loaded, "loaded key")} could not
              be loaded ({error.message}). The keys keep their loaded order.
            </span>
            <button type="button" className="button button--small" onClick={retry}>
              Try again
            </button>
          </>
        )}
      </p>
    );
  }
  return (
    <p className={error === null ? "keys-notice" : "keys-notice keys-notice--warn"} role="status">
      {counted === loaded ? (
        <span>
          Sorted by the {window} of the {formatCountOf(loaded, "loaded key")}.{notLoaded}
        </span>
      ) : (
        <span>
          Sorted by the {window} of {formatCount(counted)} of the {formatCountOf(loaded, "loaded key")}; the other{" "}
          {formatCount(loaded - counted)} come last
          {error === null ? " until theirs is fetched." : `: theirs could not be loaded (${error.message}).`}
          {notLoaded}
        </span>
      )}
      {fetching && error === null && counted !== loaded && <Spinner />}
      {error !== null && (
        <button type="button" className="button button--small" onClick={retry}>
          Try again
        </button>
      )}
    </p>
  );
}
