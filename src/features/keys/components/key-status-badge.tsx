import type { Key } from "../../../lib/contract";
import { keyStatuses, STATUS_LABELS, STATUS_TONES, type UsageTotals } from "../utils/key-status";

/** A key's status badges, worst first; "Active" when nothing is wrong, "—" when the API sent no field to judge by. */
export function KeyStatusBadges({ keyData, now, usage }: { keyData: Key; now: number; usage: UsageTotals | undefined }) {
  const statuses = keyStatuses(keyData, now, usage);
  if (statuses.length === 0) {
    const known = keyData.enabled !== undefined || keyData.expires !== undefined || keyData.credits !== undefined;
    return known ? <span className="badge badge--ok">Active</span> : <span className="keys-table__muted">—</span>;
  }
  return (
    <span className="keys-table__badges">
      {statuses.map((status) => (
        <span key={status} className={`badge badge--${STATUS_TONES[status]}`}>
          {STATUS_LABELS[status]}
        </span>
      ))}
    </span>
  );
}
