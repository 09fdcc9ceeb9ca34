import { useState, type ReactNode } from "react";
import { UsagePanel } from "@/components/usage-panel";
import type { UsageWindow } from "@/lib/analytics-sql";
import type { Connection } from "@/lib/api/transport";
import { useKeyUsage } from "../api/key-analytics";

/** A key's verifications by outcome over a window the user picks: a chart, its legend and its numbers as a table. */
export function UsageSection({
  connection,
  keyId,
  renderAnalyticsError,
}: {
  connection: Connection;
  keyId: string;
  renderAnalyticsError: (error: unknown, onRetry: () => void) => ReactNode;
}) {
  const [span, setSpan] = useState<UsageWindow>("24h");
  const query = useKeyUsage(connection, keyId, span);
  return (
    <div className="usage">
      <UsagePanel
        window={span}
        onWindow={setSpan}
        usage={query}
        loading="Loading usage…"
        renderAnalyticsError={renderAnalyticsError}
      />
    </div>
  );
}
