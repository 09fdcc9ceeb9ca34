import { ROW_HEIGHT } from "../columns/keys-layout";

/** The keys list while its first page loads. */
export function KeysListSkeleton() {
  return (
    <div className="keys-list" aria-busy="true">
      <div className="keys-toolbar">
        <div className="keys-toolbar__filter">
          <span className="skeleton keys-toolbar__skeleton-input" />
        </div>
        <p className="keys-toolbar__count" role="status">
          Loading keys…
        </p>
      </div>
      <div className="keys-table__scroller" aria-hidden="true">
        <div className="keys-table keys-table--skeleton">
          <div className="keys-table__row keys-table__row--head">
            <span className="skeleton" style={{ width: 60 }} />
          </div>
          {Array.from({ length: 8 }, (_, index) => (
            <div key={index} className="keys-table__skeleton-row" style={{ height: ROW_HEIGHT }}>
              <span className="skeleton" style={{ width: `${60 + ((index * 37) % 30)}%` }} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
