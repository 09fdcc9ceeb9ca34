import { formatCount } from "@/lib/format-number";
import { statusCountScope } from "../utils/key-view";
import { offeredFacets, STATUS_LABELS, type StatusFacet } from "../utils/key-status";
import type { KeysTableModel } from "../hooks/use-keys-table";

interface StatusFilterProps {
  model: KeysTableModel;
  loaded: number;
  /** The text filter the counted keys match ("" when none). */
  filter: string;
  hasMore: boolean;
  loading: boolean;
  onLoadAll: () => void;
}

/**
 * Filter by status, each choice with its count among the loaded keys (those the text filter matches), and which
 * keys those counts cover: with more keys on the server, the counts say so and offer to load the rest.
 */
export function StatusFilter({ model, loaded, filter, hasMore, loading, onLoadAll }: StatusFilterProps) {
  const counts = model.statusCounts;
  const selected = model.statusFilter;
  const offered = offeredFacets(counts, selected);
  if (offered.length === 0) return null;
  const toggle = (facet: StatusFacet) =>
    model.setStatusFilter(
      selected.includes(facet) ? selected.filter((value) => value !== facet) : [...selected, facet],
    );
  return (
    <div className="keys-status-filter" role="group" aria-label="Filter by status">
      <span className="keys-status-filter__label">Status</span>
      {offered.map((facet) => (
        <button
          key={facet}
          type="button"
          className="keys-status-filter__choice"
          aria-pressed={selected.includes(facet)}
          onClick={() => toggle(facet)}
        >
          {STATUS_LABELS[facet]}{" "}
          <span className="keys-status-filter__count">{formatCount(counts.get(facet) ?? 0)}</span>
        </button>
      ))}
      <span className="keys-status-filter__scope">{statusCountScope(model.countedKeys, loaded, filter, hasMore)}</span>
      {hasMore && !loading && (
        <button type="button" className="button button--small" onClick={onLoadAll}>
          Load all keys
        </button>
      )}
    </div>
  );
}
