import { Outlet } from "react-router-dom";
import { AppHeader } from "./app-header";

export function AppLayout() {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader />
      <main id="main" className="app__main" tabIndex={-1}>
        <Outlet />
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
