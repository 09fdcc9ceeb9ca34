import { Hono, type Context } from "hono";
import { isServerErrorCode } from "../http/errors";
import { renderErrorPage, renderIndexPage, renderUnknownKindPage, STYLE } from "../docs/render";
import { COMMON_SECURITY_HEADERS, staticPageCsp, styleHash } from "../http/security-headers";

const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  // The pages are static text: nothing may run or load on them but their own stylesheet.
  "content-security-policy": staticPageCsp([styleHash(STYLE)]),
  ...COMMON_SECURITY_HEADERS,
} as const;

function origin(c: Context): string {
  return new URL(c.req.url).origin;
}

/** `/docs`: the index of every error kind, one page per kind, and a 404 page for anything else. */
export function docsRoutes(): Hono {
  const docs = new Hono({ strict: false });
  const index = renderIndexPage();
  docs.get("/", (c) => c.body(index, 200, HTML_HEADERS));
  docs.get("/errors", (c) => c.body(index, 200, HTML_HEADERS));
  docs.get("/errors/:system/:category/:kind", (c) => {
    const code = `err:${c.req.param("system")}:${c.req.param("category")}:${c.req.param("kind")}`;
    if (!isServerErrorCode(code)) return c.body(renderUnknownKindPage(c.req.path), 404, HTML_HEADERS);
    return c.body(renderErrorPage(code, origin(c)), 200, HTML_HEADERS);
  });
  docs.get("*", (c) => c.body(renderUnknownKindPage(c.req.path), 404, HTML_HEADERS));
  return docs;
}
