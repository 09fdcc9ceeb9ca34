import { useState, type ReactNode } from "react";
import { formatCount } from "@/lib/format-number";

interface SelectionBarProps {
  /** How many loaded keys are selected, shown or not. */
  selectedCount: number;
  /** How many of them the filters (text and status) hide. */
  hiddenCount: number;
  /** How many keys the table shows, and how many of those are selected. */
  shownCount: number;
  shownSelected: number;
  onSelectAllShown: () => void;
  onClear: () => void;
  /** What can be done to the selected keys (composed by the app; loaded once something is selected, kept after). */
  children?: ReactNode;
}

/**
 * While selecting: how many keys are selected (and how many of them the filters hide), "Select all N shown" as a
 * button (a phone's cards have no header checkbox), Clear, and the bulk actions (from the first key selected on).
 */
export function SelectionBar({
  selectedCount,
  hiddenCount,
  shownCount,
  shownSelected,
  onSelectAllShown,
  onClear,
  children,
}: SelectionBarProps) {
  // Once shown, the actions stay (with no keys when none is selected): what they show, a bulk delete's result, must
  // not vanish when its keys leave the selection because a refresh no longer lists them.
  const [actionsShown, setActionsShown] = useState(selectedCount > 0);
  if (selectedCount > 0 && !actionsShown) setActionsShown(true);
  return (
    <div className="keys-selection" role="group" aria-label="Selected keys">
      <p className="keys-selection__count" role="status">
        {selectedCount === 0
          ? "No keys selected"
          : `${formatCount(selectedCount)} ${selectedCount === 1 ? "key" : "keys"} selected`}
        {hiddenCount > 0 && (
          <span className="keys-selection__hidden">{` · ${formatCount(hiddenCount)} of them hidden by the filters`}</span>
        )}
      </p>
      {shownSelected < shownCount && (
        <button type="button" className="button button--small" onClick={onSelectAllShown}>
          Select all {formatCount(shownCount)} shown
        </button>
      )}
      {selectedCount > 0 && (
        <button type="button" className="button button--small button--ghost" onClick={onClear}>
          Clear selection
        </button>
      )}
      {actionsShown && children}
    </div>
  );
}
