import * as v from "valibot";
import type { FirstRequest } from "../lib/api/first-request";
import { KeysDataSchema, lenient, MetaSchema, PaginationSchema } from "../lib/api/schemas";
import type { Connection } from "../lib/api/transport";
import { listKeysPaths, type Key } from "../lib/contract";
import { revealBidiControls, splitBidiControls } from "../lib/bidi";
import { formatCount } from "../lib/format-number";
import { formatIsoTime, formatRelativeTime, formatUtcTime } from "../lib/format-time";
import { describeRefill } from "../lib/key-facts";
import { maskKey } from "../features/connect/mask-key";
import { COLUMN_SPECS, presentColumns, type ColumnId } from "../features/keys/column-specs";
import { countStatuses, keyStatuses, offeredFacets, STATUS_LABELS, STATUS_TONES } from "../features/keys/key-status";
import { countText } from "../features/keys/key-view";
import { COMPACT_QUERY, estimatedListWidth, HEADER_HEIGHT, ROW_HEIGHT } from "../features/keys/keys-layout";
import { fitChosenColumns, initialColumnChoice, offeredColumns } from "../features/keys/column-choice";
import { displayBaseUrl } from "./display-base-url";
import { keyPath, paths } from "./paths";
import { PRODUCT_NAME } from "./product";
import "../components/copy-button.css";
import "../features/keys/components/keys.css";

/**
 * The keys page drawn once with DOM calls from the list's first answer, as soon as it arrives: React and the
 * page's own code come a few hundred milliseconds later on a slow machine (issue 13). index.html fetches this file,
 * a separate entry of the build that never waits for the app's code, with the tab's first module
 * (src/first-request/), which runs it when it starts that request. What is drawn is what React's first render draws
 * in a wide window (test/e2e/first-request.spec.ts compares the two), made inert until that render replaces it. Only where that
 * render is known: the keys page itself, a wide window, no saved environments, online, and some keys; anywhere
 * else nothing is drawn. DOM calls because React is the very thing not yet ready; every value comes from the
 * functions the table itself uses.
 */

type Child = Node | string | false | null | undefined;

function append(parent: Element, children: readonly Child[]): void {
  for (const child of children) if (child !== false && child !== null && child !== undefined && child !== "") parent.append(child);
}

type Styles = Record<string, string>;

/** An element; `style` is set through the CSSOM, as React sets it (the CSP refuses style attributes). */
function h(tag: string, attributes: Record<string, string | Styles | undefined>, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === "string") element.setAttribute(name, value);
    else if (value !== undefined) for (const [property, setting] of Object.entries(value)) element.style.setProperty(property, setting);
  }
  append(element, children);
  return element;
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag: string, attributes: Record<string, string>, ...children: Element[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** The first page of keys, as the list's query will hold it. */
interface FirstPage {
  keys: readonly Key[];
  hasMore: boolean;
}

/**
 * src/features/environments/environment-store.ts's item: with environments saved, the header has a switcher.
 * Repeated, not imported (a test compares them): the store's module brings React and the base-URL checks with it,
 * which this file must not wait for.
 */
export const ENVIRONMENTS_ITEM = "keyscope.environments";

function noSavedEnvironments(): boolean {
  try {
    return localStorage.getItem(ENVIRONMENTS_ITEM) === null;
  } catch {
    return true;
  }
}

/** Whether this tab's first screen is one the first paint draws exactly (before its keys are known). */
function paintsHere(): boolean {
  return (
    (location.pathname === paths.keys || location.pathname === `${paths.keys}/`) &&
    !window.matchMedia(COMPACT_QUERY).matches &&
    navigator.onLine &&
    noSavedEnvironments()
  );
}

/** The answer's keys as the list parses them (src/lib/api/list-keys.ts), or undefined for any other answer. */
function firstPageOf(answer: unknown): FirstPage | undefined {
  const parsed = v.safeParse(v.looseObject({ meta: MetaSchema, data: KeysDataSchema, pagination: lenient(PaginationSchema) }), answer);
  return parsed.success ? { keys: parsed.output.data, hasMore: parsed.output.pagination?.hasMore ?? false } : undefined;
}

/** Resolves once the stylesheet is in use (added if the page has no link to it yet); rejects if it failed. */
function stylesheet(href: string): Promise<void> {
  const existing = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].find((link) => link.getAttribute("href") === href);
  if (existing?.sheet) return Promise.resolve();
  const link = existing ?? h("link", { rel: "stylesheet", crossorigin: "", href });
  const loaded = new Promise<void>((resolve, reject) => {
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => reject(new Error(`${href} did not load`)), { once: true });
  });
  if (existing === undefined) document.head.append(link);
  return loaded;
}

export interface FirstPaintStart {
  /** The early request's hand-over, whose `firstPaint` the app closes as its first render begins. */
  handoff: FirstRequest;
  /** A copy of the list's first response. */
  response: Promise<Response>;
  /** What the request was made with. */
  connection: Connection;
  /** The stylesheets the page is drawn with. */
  styles: readonly string[];
}

/**
 * Draws the keys page from the list's first answer, with the page's stylesheets, into the app's still empty root,
 * unless the app has begun its own first render by then (it closes `handoff.firstPaint`). Never rejects: a page
 * not drawn is the app's to draw, as before.
 */
export async function paintFirstScreen({ handoff, response, connection, styles }: FirstPaintStart): Promise<void> {
  // A request that failed is the app's to report; unread here, it must not be an unhandled rejection either.
  response.catch(() => undefined);
  try {
    if (!paintsHere()) return;
    const [answer] = await Promise.all([
      response.then((received): Promise<unknown> | undefined => (received.status === 200 ? received.json() : undefined)),
      ...styles.map(stylesheet),
    ]);
    const page = firstPageOf(answer);
    const container = document.getElementById("root");
    if (page === undefined || page.keys.length === 0 || container === null || container.firstChild !== null || handoff.firstPaint !== "open") return;
    container.append(draw(connection, page, Date.now()));
    handoff.firstPaint = "drawn";
  } catch {
    // Nothing drawn: the app renders as it would without it.
  }
}

function draw(connection: Connection, page: FirstPage, now: number): HTMLElement {
  return h(
    "div",
    { class: "app", inert: "" },
    h("a", { class: "skip-link", href: "#main" }, "Skip to content"),
    header(connection),
    h("main", { id: "main", class: "app__main", tabindex: "-1" }, keysPage(connection, page, now)),
  );
}

function header(connection: Connection): HTMLElement {
  return h(
    "header",
    { class: "app-header" },
    h(
      "div",
      { class: "app-header__inner" },
      h("a", { class: "app-header__brand", href: paths.home }, h("img", { alt: "", width: "26", height: "26", src: "/favicon.svg" }), h("span", {}, PRODUCT_NAME)),
      h(
        "nav",
        { "aria-label": "Main", class: "app-header__nav" },
        h("a", { "aria-current": "page", class: "app-header__link active", href: paths.keys }, "Keys"),
        h("a", { class: "app-header__link", href: paths.troubleshoot }, "Troubleshoot"),
      ),
      h(
        "div",
        { class: "app-header__connection" },
        h(
          "dl",
          { class: "app-header__facts" },
          h(
            "div",
            { class: "app-header__fact app-header__fact--url" },
            h("dt", { class: "visually-hidden" }, "Base URL"),
            h("dd", { title: connection.baseUrl }, displayBaseUrl(connection.baseUrl)),
          ),
          h(
            "div",
            { class: "app-header__fact" },
            h("dt", { class: "visually-hidden" }, "Key"),
            h("dd", {}, h("code", { class: "app-header__key" }, maskKey(connection.apiKey))),
          ),
        ),
        h("button", { type: "button", class: "button button--small app-header__forget" }, "Forget key"),
      ),
    ),
  );
}

function keysPage(connection: Connection, page: FirstPage, now: number): HTMLElement {
  const { keys, hasMore } = page;
  const offered = offeredColumns(presentColumns(keys), true);
  const { shown, folded } = fitChosenColumns(offered, initialColumnChoice(), [], { width: estimatedListWidth(false), compact: false });
  const counts = countStatuses(keys, now);
  const facets = offeredFacets(counts, []);
  return h(
    "div",
    { class: "keys-page" },
    h(
      "div",
      { class: "keys-page__header" },
      h("h1", {}, "Keys"),
      h("p", { class: "keys-page__source" }, "From ", h("code", {}, "POST ", connection.baseUrl, listKeysPaths(connection.apiId)[0])),
    ),
    h(
      "div",
      { class: "keys-list" },
      h(
        "div",
        { class: "keys-toolbar" },
        h(
          "div",
          { class: "keys-toolbar__filter" },
          h("label", { class: "visually-hidden" }, "Filter keys"),
          svg(
            "svg",
            { class: "keys-toolbar__icon", viewBox: "0 0 20 20", width: "16", height: "16", "aria-hidden": "true" },
            svg("circle", { cx: "9", cy: "9", r: "5.5", fill: "none", stroke: "currentColor", "stroke-width": "2" }),
            svg("path", { d: "m13.5 13.5 3.5 3.5", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }),
          ),
          h("input", { class: "input", placeholder: "Filter by name, key id or prefix", autocomplete: "off", spellcheck: "false", type: "search", value: "" }),
        ),
        h("p", { class: "keys-toolbar__count", role: "status" }, countText(keys.length, keys.length, false, hasMore)),
        h(
          "details",
          { class: "keys-columns" },
          h("summary", { class: "button" }, "Columns", folded.length > 0 && h("span", { class: "keys-columns__folded-count" }, `(${folded.length} folded)`)),
        ),
        h(
          "button",
          { type: "button", class: "button keys-toolbar__refresh", "aria-disabled": "false" },
          svg(
            "svg",
            { viewBox: "0 0 20 20", width: "14", height: "14", "aria-hidden": "true" },
            svg("path", {
              d: "M16 10a6 6 0 1 1-1.76-4.24M16 4v3.5h-3.5",
              fill: "none",
              stroke: "currentColor",
              "stroke-width": "2",
              "stroke-linecap": "round",
              "stroke-linejoin": "round",
            }),
          ),
          " Refresh",
        ),
        h("div", { class: "keys-export" }, h("button", { type: "button", class: "button", "aria-expanded": "false" }, "Export…")),
      ),
      facets.length > 0 &&
        h(
          "div",
          { class: "keys-status-filter", role: "group", "aria-label": "Filter by status" },
          h("span", { class: "keys-status-filter__label" }, "Status"),
          ...facets.map((facet) =>
            h(
              "button",
              { type: "button", class: "keys-status-filter__choice", "aria-pressed": "false" },
              `${STATUS_LABELS[facet]} `,
              h("span", { class: "keys-status-filter__count" }, formatCount(counts.get(facet) ?? 0)),
            ),
          ),
          h(
            "span",
            { class: "keys-status-filter__scope" },
            hasMore
              ? `Counted among the ${formatCount(keys.length)} keys looked at so far; more are not loaded.`
              : `Counted among all ${formatCount(keys.length)} keys.`,
          ),
          hasMore && h("button", { type: "button", class: "button button--small" }, "Load all keys"),
        ),
      table(keys, shown, now),
      hasMore && h("div", { class: "keys-list__more" }, h("button", { type: "button", class: "button", "aria-disabled": "false" }, "Load more")),
    ),
  );
}

function table(keys: readonly Key[], columns: readonly ColumnId[], now: number): HTMLElement {
  // The rows a window can show; the virtualizer's overscan below them is never in view.
  const rows = keys.slice(0, Math.ceil(window.innerHeight / ROW_HEIGHT));
  const style = {
    "--keys-columns": columns.map((column) => COLUMN_SPECS[column].width).join(" "),
    "--keys-min-width": `${columns.reduce((sum, column) => sum + COLUMN_SPECS[column].minWidth, 0)}px`,
    "--keys-row-height": `${ROW_HEIGHT}px`,
  };
  return h(
    "div",
    { class: "keys-table__scroller", style: { "--keys-content-height": `${HEADER_HEIGHT + keys.length * ROW_HEIGHT + 2}px` } },
    h(
      "div",
      { role: "table", class: "keys-table", "aria-label": "API keys", "aria-rowcount": String(keys.length + 1), "aria-colcount": String(columns.length), style },
      h(
        "div",
        { role: "rowgroup", class: "keys-table__head" },
        h(
          "div",
          { role: "row", "aria-rowindex": "1", class: "keys-table__row keys-table__row--head" },
          ...columns.map((id) =>
            h(
              "div",
              { role: "columnheader", class: `keys-table__cell keys-table__cell--${id}` },
              h(
                "button",
                { type: "button", class: "keys-table__sort" },
                COLUMN_SPECS[id].label,
                svg(
                  "svg",
                  { class: "keys-table__sort-icon", viewBox: "0 0 10 14", width: "8", height: "12", "aria-hidden": "true" },
                  svg("path", { d: "M5 1 9 5H1z", fill: "currentColor", opacity: "0.3" }),
                  svg("path", { d: "M5 13 1 9h8z", fill: "currentColor", opacity: "0.3" }),
                ),
              ),
            ),
          ),
        ),
      ),
      h(
        "div",
        { role: "rowgroup", class: "keys-table__body", style: { height: `${keys.length * ROW_HEIGHT}px` } },
        ...rows.map((key, index) =>
          h(
            "div",
            { role: "row", "aria-rowindex": String(index + 2), class: "keys-table__row", style: { transform: `translateY(${index * ROW_HEIGHT}px)` } },
            ...columns.map((column) => h("div", { role: "cell", class: `keys-table__cell keys-table__cell--${column}` }, ...cell(column, key, now))),
          ),
        ),
      ),
    ),
  );
}

function muted(text = "—"): HTMLElement {
  return h("span", { class: "keys-table__muted" }, text);
}

function safeName(name: string): HTMLElement {
  return h(
    "bdi",
    { title: revealBidiControls(name) },
    ...splitBidiControls(name).map((part) =>
      part.kind === "text"
        ? part.text
        : h(
            "span",
            { class: "bidi-control", title: `Hidden text-direction character ${part.code} (${part.name}): shown here so that it cannot disguise the name` },
            `⟨${part.code}⟩`,
          ),
    ),
  );
}

function relativeTime(time: number, now: number): HTMLElement {
  const iso = formatIsoTime(time);
  return iso === null ? h("span", {}, "—") : h("time", { datetime: iso, title: formatUtcTime(time) ?? iso }, formatRelativeTime(time, now));
}

/** What src/features/keys/components/key-cells.tsx renders in a wide row before usage is in. */
function cell(column: ColumnId, key: Key, now: number): Child[] {
  switch (column) {
    case "name":
      return [h("a", { class: "keys-table__name", href: keyPath(key.keyId) }, (key.name ?? "") === "" ? muted("Unnamed") : safeName(key.name ?? ""))];
    case "keyId":
      return [
        h("code", { class: "keys-table__id", title: key.keyId }, key.keyId),
        h(
          "span",
          { class: "copy-button keys-table__copy" },
          h(
            "button",
            { type: "button", class: "button button--small copy-button__button", "aria-label": `Copy key id ${key.keyId}` },
            svg(
              "svg",
              { class: "copy-button__icon", viewBox: "0 0 16 16", width: "14", height: "14", "aria-hidden": "true", focusable: "false" },
              svg("rect", { x: "5.5", y: "5.5", width: "8", height: "8", rx: "1.5", fill: "none", stroke: "currentColor", "stroke-width": "1.5" }),
              svg("path", { d: "M10.5 3.5v-.5A1.5 1.5 0 0 0 9 1.5H3A1.5 1.5 0 0 0 1.5 3v6A1.5 1.5 0 0 0 3 10.5h.5", fill: "none", stroke: "currentColor", "stroke-width": "1.5" }),
            ),
            h("span", {}),
          ),
          h("span", { class: "copy-button__feedback copy-button__feedback--idle", role: "status" }),
        ),
      ];
    case "start":
      return [key.start === undefined ? muted() : h("code", { class: "keys-table__start" }, `${key.start}…`)];
    case "status": {
      const statuses = keyStatuses(key, now);
      if (statuses.length === 0) {
        const known = key.enabled !== undefined || key.expires !== undefined || key.credits !== undefined;
        return [known ? h("span", { class: "badge badge--ok" }, "Active") : muted()];
      }
      return [h("span", { class: "keys-table__badges" }, ...statuses.map((status) => h("span", { class: `badge badge--${STATUS_TONES[status]}` }, STATUS_LABELS[status])))];
    }
    case "lastUsed": {
      if (key.lastUsedAt === undefined) return [muted("Never")];
      const iso = formatIsoTime(key.lastUsedAt);
      if (iso === null) return [muted()];
      const exact = formatUtcTime(key.lastUsedAt) ?? iso;
      return [
        h(
          "span",
          { class: "keys-table__time" },
          h("time", { datetime: iso, title: exact }, formatRelativeTime(key.lastUsedAt, now)),
          h("span", { class: "visually-hidden" }, ` (${exact})`),
        ),
      ];
    }
    case "usage":
      return [h("span", { class: "usage-bar usage-bar--pending", "aria-hidden": "true" })];
    case "credits": {
      const credits = key.credits;
      if (credits === undefined) return [muted()];
      if (credits.remaining === null) return [muted("Unlimited")];
      const refill = credits.refill;
      const title = refill === undefined ? undefined : `Credits ${describeRefill(refill)}`;
      return [h("span", { class: "keys-table__credits", title }, formatCount(credits.remaining), title !== undefined && h("span", { class: "visually-hidden" }, `, ${title}`))];
    }
    case "externalId":
      return [key.identity === undefined ? muted() : h("code", { class: "keys-table__external" }, safeName(key.identity.externalId))];
    case "createdAt":
      return [key.createdAt === undefined ? muted() : relativeTime(key.createdAt, now)];
    case "expires":
      return [key.expires === undefined ? muted("Never") : relativeTime(key.expires, now)];
  }
}
