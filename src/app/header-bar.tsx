import { useId, useLayoutEffect, useRef, type ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router-dom";
import { useConnection } from "../features/connect/key-store";
import { useSectionAccess, type SectionAccess, type SectionId } from "../lib/section-access";
import { BrandMark } from "./brand-mark";
import { paths } from "./paths";
import { PRODUCT_NAME } from "./product";

/**
 * The header's sections, in order: a new page is one entry here. `access`: a section the root key may be refused or
 * the connection's service may lack (src/lib/section-access.ts); its link says so once the page has found out.
 */
export const NAV_SECTIONS: readonly { path: string; label: string; access?: SectionId }[] = [
  { path: paths.keys, label: "Keys" },
  { path: paths.logs, label: "Logs" },
  { path: paths.identities, label: "Identities", access: "identities" },
  { path: paths.authorization, label: "Authorization", access: "authorization" },
  { path: paths.ratelimits, label: "Rate limits", access: "ratelimits" },
  { path: paths.troubleshoot, label: "Troubleshoot" },
];

/**
 * The header's frame: the product's name and the sections, then what the page adds (`children`). `links`: the
 * router's links (the current section marked), or plain links that load the page afresh, for the frame shown when
 * the app itself failed (which may have no router, and should need nothing of the failed app).
 *
 * The sections are one row whatever their number: where they do not fit (a phone), the row scrolls sideways, with a
 * shadow at the edge that has more; the current section is scrolled into view, and a link reached with Tab is too.
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
        {links === "router" ? (
          <RouterSections />
        ) : (
          <nav aria-label="Main" className="app-header__nav">
            {NAV_SECTIONS.map(({ path, label }) => (
              <a key={path} href={path} className="app-header__link">
                {label}
              </a>
            ))}
          </nav>
        )}
        {children}
      </div>
    </header>
  );
}

/**
 * Scrolls the row so that `link` is wholly in view, by the row's own offset (scrollIntoView would scroll the page too):
 * centred when `center`, else just enough. Chromium leaves a link half hidden when Tab focuses it.
 */
function reveal(nav: HTMLElement, link: HTMLElement, center: boolean): void {
  if (nav.scrollWidth <= nav.clientWidth) return;
  const left = link.offsetLeft - nav.offsetLeft;
  const right = left + link.offsetWidth;
  if (left >= nav.scrollLeft && right <= nav.scrollLeft + nav.clientWidth) return;
  if (center) nav.scrollLeft = left - (nav.clientWidth - link.offsetWidth) / 2;
  else nav.scrollLeft = left < nav.scrollLeft ? left - 8 : right - nav.clientWidth + 8;
}

/** The sections as the router's links; the current one, and the one focused, kept in view when the row scrolls. */
function RouterSections() {
  const navRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    const nav = navRef.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (nav && current) reveal(nav, current, true);
  }, [pathname]);
  return (
    <nav
      aria-label="Main"
      className="app-header__nav"
      ref={navRef}
      onFocus={(event) => {
        if (navRef.current && event.target instanceof HTMLElement) reveal(navRef.current, event.target, false);
      }}
    >
      {NAV_SECTIONS.map((section) =>
        section.access === undefined ? (
          <NavLink key={section.path} to={section.path} className="app-header__link">
            {section.label}
          </NavLink>
        ) : (
          <GuardedSectionLink key={section.path} path={section.path} label={section.label} access={section.access} />
        ),
      )}
    </nav>
  );
}

/** What a section's link says of it once its page found the root key refused or the service without it. */
function accessWords(label: string, access: SectionAccess): string {
  return access.kind === "refused"
    ? `${label}: this root key may not read them${access.needs[0] === undefined ? "" : ` (it needs ${access.needs[0]})`}`
    : `${label}: not available on this connection (its service has no such operation)`;
}

/** A section's link, marked (and described) once its page found the root key refused or the service without it. */
function GuardedSectionLink({ path, label, access }: { path: string; label: string; access: SectionId }) {
  const connection = useConnection();
  const known = useSectionAccess(connection, access);
  const wordsId = useId();
  const words = known === undefined ? undefined : accessWords(label, known);
  return (
    <>
      <NavLink
        to={path}
        className="app-header__link"
        data-access={known?.kind}
        title={words}
        aria-describedby={words === undefined ? undefined : wordsId}
      >
        {label}
      </NavLink>
      {words !== undefined && (
        <span id={wordsId} className="visually-hidden">
          {words}
        </span>
      )}
    </>
  );
}
