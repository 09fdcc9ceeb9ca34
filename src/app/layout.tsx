import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useEffect, useRef } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { onKeyForgottenElsewhere } from "../features/connect/key-hand-over";
import { AppHeader } from "./app-header";
import { PageLoading } from "./page-loading";
import { preloadWhenIdle } from "./pages";

export function AppLayout() {
  const mainRef = useRef<HTMLElement>(null);
  const location = useLocation();
  const queryClient = useQueryClient();
  useEffect(preloadWhenIdle, []);
  // Another tab's "Forget key" removed this tab's key: nothing cached with it may stay on screen.
  useEffect(() => onKeyForgottenElsewhere(() => queryClient.clear()), [queryClient]);

  // After moving to another page, focus would be left on the body (the control that moved us is gone):
  // put it at the start of the new page's content instead.
  const pathname = location.pathname;
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = "";
    const active = document.activeElement;
    if (active === null || active === document.body) mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader />
      <main id="main" className="app__main" tabIndex={-1} ref={mainRef}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

/** While the first route's code loads. */
export function AppLoading() {
  return (
    <div className="app app--loading" role="status">
      <span className="spinner" aria-hidden="true" /> Loading Keyscope…
    </div>
  );
}
