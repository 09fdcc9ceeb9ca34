import type { ReactNode } from "react";
import { Link, NavLink } from "react-router-dom";
import { BrandMark } from "./brand-mark";
import { paths } from "./paths";
import { PRODUCT_NAME } from "./product";

/** The header's sections, in order: a new page is one entry here. */
export const NAV_SECTIONS: readonly { path: string; label: string }[] = [
  { path: paths.keys, label: "Keys" },
  { path: paths.logs, label: "Logs" },
  { path: paths.ratelimits, label: "Rate limits" },
  { path: paths.troubleshoot, label: "Troubleshoot" },
];

/**
 * The header's frame: the product's name and the sections, then what the page adds (`children`). `links`: the
 * router's links (the current section marked), or plain links that load the page afresh, for the frame shown when
 * the app itself failed (which may have no router, and should need nothing of the failed app).
 */
export function HeaderBar({ links, children }: { links: "router" | "page-load"; children?: ReactNode }) {
  return (
    <header className="app-header">
      <div className="app-header__inner">
        {links === "router" ? (
          <Link to={paths.home} className="app-header__brand">
            <BrandMark />
            <span>{PRODUCT_NAME}</span>
          </Link>
        ) : (
          <a href={paths.home} className="app-header__brand">
            <BrandMark />
            <span>{PRODUCT_NAME}</span>
          </a>
        )}
        <nav aria-label="Main" className="app-header__nav">
          {NAV_SECTIONS.map(({ path, label }) =>
            links === "router" ? (
              <NavLink key={path} to={path} className="app-header__link">
                {label}
              </NavLink>
            ) : (
              <a key={path} href={path} className="app-header__link">
                {label}
              </a>
            ),
          )}
        </nav>
        {children}
      </div>
    </header>
  );
}
