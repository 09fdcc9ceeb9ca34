import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { Connection } from "@/lib/api/transport";
import { cachedUsageTotals, isAnalyticsForbidden, useKeysUsage } from "../api/get-keys-usage";

/** Usage: one analytics query for the rows in view, asked once they are painted and scrolling has settled. */
export function useVisibleUsage(connection: Connection) {
  const [keysInView, setKeysInView] = useState<readonly string[]>([]);
  const onKeysInView = useCallback(
    (ids: readonly string[]) => setKeysInView((previous) => (previous.join(" ") === ids.join(" ") ? previous : ids)),
    [],
  );
  const usage = useKeysUsage(connection, keysInView);
  const queryClient = useQueryClient();
  return {
    usage,
    /** The root key may list keys but not read analytics: the usage column gives way to a notice. */
    forbidden: isAnalyticsForbidden(usage.error),
    /** For the table to report the rows it shows. */
    onKeysInView,
    /** Every key's usage totals seen so far (read when asked, e.g. for an export). */
    usageSeen: () => cachedUsageTotals(queryClient, connection),
  };
}
