import type { ReactNode } from "react";

interface ScrollBoxProps {
  /** The id of the visible text that names the box. */
  labelledBy: string;
  className?: string;
  children: ReactNode;
}

/** Caps the height of server-sent text (which may be 10 KB long) and scrolls it inside the panel. */
export function ScrollBox({ labelledBy, className, children }: ScrollBoxProps) {
  return (
    <div
      className={className ? `error-panel__scroll ${className}` : "error-panel__scroll"}
      role="region"
      aria-labelledby={labelledBy}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard to be scrolled
      tabIndex={0}
    >
      {children}
    </div>
  );
}
