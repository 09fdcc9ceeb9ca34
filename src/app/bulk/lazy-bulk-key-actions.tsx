import { LateCodeBoundary } from "../../components/late-code-boundary";
import { retryableLazy } from "../../lib/retryable-lazy";
import type { BulkKeyActionsProps } from "./bulk-key-actions";

// Loaded when a first key is selected, with the catalog that names its failures: never on the way to the first row.
const BulkKeyActions = retryableLazy(
  () => import("./bulk-key-actions"),
  (module) => module.BulkKeyActions,
);

/** The bulk actions, loaded on first use; if their code cannot load, a line says so with a way to try again. */
export function LazyBulkKeyActions(props: BulkKeyActionsProps) {
  return (
    <LateCodeBoundary what="The bulk actions" inline loading={<span role="status">Loading the bulk actions…</span>}>
      <BulkKeyActions {...props} />
    </LateCodeBoundary>
  );
}
