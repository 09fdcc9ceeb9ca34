import type { ComponentProps } from "react";
import { LateCodeBoundary } from "@/components/late-code-boundary";
import { retryableLazy } from "@/lib/retryable-lazy";
import type { SelectionBar as SelectionBarComponent } from "./selection-bar";

// Loaded when Select is pressed: not on the way to the first row.
const SelectionBar = retryableLazy(
  () => import("./selection-bar"),
  (module) => module.SelectionBar,
);

/** The selection bar, loaded on first use; if its code cannot load, a line says so with a way to try again. */
export function LazySelectionBar(props: ComponentProps<typeof SelectionBarComponent>) {
  return (
    <LateCodeBoundary what="The selection" loading={<p role="status">Loading the selection…</p>}>
      <SelectionBar {...props} />
    </LateCodeBoundary>
  );
}
