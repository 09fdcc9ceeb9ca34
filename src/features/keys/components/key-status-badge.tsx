import type { Key } from "../../../lib/contract";
import { keyStatus, type KeyStatus } from "../key-view";

const BADGES: Record<KeyStatus, { label: string; tone: string }> = {
  enabled: { label: "Enabled", tone: "ok" },
  disabled: { label: "Disabled", tone: "muted" },
  expired: { label: "Expired", tone: "warn" },
};

export function KeyStatusBadge({ keyData, now }: { keyData: Key; now: number }) {
  const status = keyStatus(keyData, now);
  if (status === null) return <span className="keys-table__muted">—</span>;
  const badge = BADGES[status];
  return <span className={`badge badge--${badge.tone}`}>{badge.label}</span>;
}
