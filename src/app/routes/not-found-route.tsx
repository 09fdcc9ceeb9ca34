import { Link, useLocation } from "react-router-dom";
import { usePageTitle } from "../use-page-title";
import { paths } from "../paths";

export function NotFoundRoute() {
  usePageTitle("Page not found");
  const { pathname } = useLocation();
  return (
    <div className="not-found">
      <p className="not-found__code">404</p>
      <h1>Page not found</h1>
      <p>
        There is nothing at <code>{pathname}</code>.
      </p>
      <Link className="button button--primary" to={paths.home}>
        Go home
      </Link>
    </div>
  );
}
