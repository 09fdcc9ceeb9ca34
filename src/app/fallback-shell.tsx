import type { ReactNode } from "react";
import { HeaderBar } from "./header-bar";

/**
 * The page's frame when the app's own layout failed: the same landmarks, and plain links (a full page load,
 * which needs nothing of the failed app) as a way on.
 */
export function FallbackShell({ children }: { children: ReactNode }) {
  return (
    <div className="app">
      <HeaderBar links="page-load" />
      <main id="main" className="app__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
