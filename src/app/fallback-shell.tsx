import type { ReactNode } from "react";
import { paths } from "./paths";
import { BrandMark } from "./brand-mark";
import { PRODUCT_NAME } from "./product";

/**
 * The page's frame when the app's own layout failed: the same landmarks, and plain links (a full page load,
 * which needs nothing of the failed app) as a way on.
 */
export function FallbackShell({ children }: { children: ReactNode }) {
  return (
    <div className="app">
      <header className="app-header">
        <div className="app-header__inner">
          <a href={paths.home} className="app-header__brand">
            <BrandMark />
            <span>{PRODUCT_NAME}</span>
          </a>
          <nav aria-label="Main" className="app-header__nav">
            <a href={paths.keys} className="app-header__link">
              Keys
            </a>
            <a href={paths.troubleshoot} className="app-header__link">
              Troubleshoot
            </a>
          </nav>
        </div>
      </header>
      <main id="main" className="app__main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
