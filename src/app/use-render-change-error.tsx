import type { RenderError } from "../features/key-actions/components/render-error";
import { LazyErrorPanel as ErrorPanel } from "../features/troubleshoot/components/lazy-error-panel";
import type { Connection } from "../lib/api/transport";
import { TROUBLESHOOT_PATH } from "./paths";
import { useForgetKey } from "./use-forget-key";

/** How a failed change to keys reads, wherever the key actions run: the troubleshoot panel, with Re-enter key. */
export function useRenderChangeError(connection: Connection): RenderError {
  const reenterKey = useForgetKey();
  return (error, onRetry) => (
    <ErrorPanel
      error={error}
      baseUrl={connection.baseUrl}
      onRetry={onRetry}
      onReenterKey={reenterKey}
      troubleshootHref={TROUBLESHOOT_PATH}
    />
  );
}
