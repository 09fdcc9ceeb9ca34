/**
 * The one rule set for base URLs: what key entry, environments, the diagnosis and the API client accept in
 * front of `/v2/keys.listKeys`. An http(s) origin, optionally with a path prefix (a gateway mount point); a
 * stored connection may also hold "" or "/path" (this page's own origin: the dev server and proxy mode).
 */
import { InvalidConnectionError } from "./api-errors";

export type BaseUrlFix = "removed-operation-path";

export type BaseUrlProblem =
  "base-url-empty" | "base-url-not-http" | "base-url-unparsable" | "base-url-has-credentials" | "base-url-has-query";

export type BaseUrlCheck =
  | { ok: true; baseUrl: string; fixes: BaseUrlFix[]; removedPath?: string }
  | { ok: false; problem: BaseUrlProblem; reason: string };

export interface BaseUrlCheckOptions {
  /**
   * As a stored connection holds it: "" and "/path" mean this page's origin, and the path is kept as it is.
   * Otherwise (as typed) an address is required and a pasted operation path is cut off.
   */
  stored?: boolean;
}

const OPERATION_PATH = /\/v2(?:\/[A-Za-z]+\.[A-Za-z]+)?$/;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** `javascript:…`, `mailto:…`: a scheme without `//` that is not a host and port (`localhost:8787`). */
const OTHER_SCHEME = /^([a-z][a-z0-9+.-]*):(?!\d)/i;
/** What is left of an http scheme typed wrong (`http//`, `https:/`, `http:`), to suggest the address without it. */
const BROKEN_HTTP_SCHEME = /^(?:https?:?\/*)?\/*/i;

function refuse(problem: BaseUrlProblem, reason: string): BaseUrlCheck {
  return { ok: false, problem, reason };
}

export function checkBaseUrl(input: string, { stored = false }: BaseUrlCheckOptions = {}): BaseUrlCheck {
  const value = input.trim();
  if (stored && (value === "" || (value.startsWith("/") && !value.startsWith("//")))) {
    if (/[?#]/.test(value))
      return refuse(
        "base-url-has-query",
        "Remove the query string or fragment (from “?” or “#” on): the base URL is only the address of the API.",
      );
    return { ok: true, baseUrl: value.replace(/\/+$/, ""), fixes: [] };
  }
  if (value === "")
    return refuse("base-url-empty", "Enter the address of the API, for example https://api.example.com.");
  if (!HAS_SCHEME.test(value)) {
    const scheme = OTHER_SCHEME.exec(value)?.[1];
    if (scheme !== undefined && !/^https?$/i.test(scheme)) {
      return refuse("base-url-not-http", `Only http:// and https:// addresses work here, not ${scheme}:.`);
    }
    const address = value.replace(BROKEN_HTTP_SCHEME, "");
    return refuse(
      "base-url-not-http",
      `Start the address with http:// or https://, for example https://${address || "api.example.com"}.`,
    );
  }

  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse(
      "base-url-unparsable",
      "This is not a valid address. Check it for typos, for example https://api.example.com.",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refuse("base-url-not-http", `Only http:// and https:// addresses work here, not ${url.protocol}//.`);
  }
  if (url.username !== "" || url.password !== "") {
    return refuse(
      "base-url-has-credentials",
      "Remove the user name and password from the address: the API key goes in its own field.",
    );
  }
  if (value.includes("?"))
    return refuse(
      "base-url-has-query",
      "Remove the query string (from “?” on): the base URL is only the address of the API.",
    );
  if (value.includes("#"))
    return refuse(
      "base-url-has-query",
      "Remove the fragment (from “#” on): the base URL is only the address of the API.",
    );

  let path = url.pathname.replace(/\/+$/, "");
  const operation = stored ? null : OPERATION_PATH.exec(path);
  if (operation) {
    path = path.slice(0, operation.index).replace(/\/+$/, "");
    return { ok: true, baseUrl: `${url.origin}${path}`, fixes: ["removed-operation-path"], removedPath: operation[0] };
  }
  return { ok: true, baseUrl: `${url.origin}${path}`, fixes: [] };
}

export type BaseUrlValidation = { ok: true; baseUrl: string } | { ok: false; error: InvalidConnectionError };

/** A stored connection's base URL as requests use it, or the InvalidConnectionError it is. */
export function validateBaseUrl(input: string): BaseUrlValidation {
  const check = checkBaseUrl(input, { stored: true });
  return check.ok
    ? { ok: true, baseUrl: check.baseUrl }
    : { ok: false, error: new InvalidConnectionError(check.problem, check.reason) };
}

/** Trims and drops trailing slashes; throws an InvalidConnectionError for anything but http(s) (or "" / "/path"). */
export function normalizeBaseUrl(input: string): string {
  const check = validateBaseUrl(input);
  if (!check.ok) throw check.error;
  return check.baseUrl;
}

export type BaseUrlWarning = "cross-origin" | "mixed-content" | "plain-http" | "ipv6-loopback";

/**
 * Plain http hosts the served page's Content-Security-Policy lets Keyscope reach besides its own origin
 * (server/http/security-headers.ts): a root key travels over plain http only to this computer. `[::1]` is this
 * computer too, but no CSP source can name it, so it gets its own warning.
 */
const CSP_HTTP_HOSTS = new Set(["127.0.0.1", "localhost"]);

/** Things that are not wrong but will likely fail in a browser; shown as hints, never blocking. */
export function baseUrlWarnings(baseUrl: string, pageOrigin: string): BaseUrlWarning[] {
  let target: URL;
  let page: URL;
  try {
    target = new URL(baseUrl);
    page = new URL(pageOrigin);
  } catch {
    return [];
  }
  const warnings: BaseUrlWarning[] = [];
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(target.hostname);
  if (page.protocol === "https:" && target.protocol === "http:" && !loopback) warnings.push("mixed-content");
  else if (target.protocol === "http:" && target.origin !== page.origin && !CSP_HTTP_HOSTS.has(target.hostname)) {
    warnings.push(target.hostname === "[::1]" ? "ipv6-loopback" : "plain-http");
  }
  if (target.origin !== page.origin) warnings.push("cross-origin");
  return warnings;
}
