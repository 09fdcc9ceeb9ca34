import type { Key } from "@/lib/contract";
import { statusLabels, type UsageTotals } from "../utils/key-status";

/** A key's status badges, worst first; "Active" when nothing is wrong, "—" when the API sent no field to judge by. */
export function keyStatusBadges(keyData: Key, now: number, usage: UsageTotals | undefined) {
  const labels = statusLabels(keyData, now, usage);
  if (labels.length === 0) return <span className="keys-table__muted">—</span>;
  return (
    <span className="keys-table__badges">
      {labels.map(({ label, tone }) => (
        <span key={label} className={`badge badge--${tone}`}>
          {label}
        </span>
      ))}
    </span>
  );
}
