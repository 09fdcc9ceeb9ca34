import { InvalidConnectionError } from "./api-errors";

/**
 * The base URL Keyscope puts in front of `/v2/keys.listKeys`: an http(s) origin, optionally with a
 * path prefix (a gateway mount point). A pasted operation URL is cut back to its base, and the user told.
 */

export type BaseUrlFix = "removed-operation-path";

export type BaseUrlCheck =
  | { ok: true; baseUrl: string; fixes: BaseUrlFix[]; removedPath?: string }
  | { ok: false; reason: string };

const OPERATION_PATH = /\/v2(?:\/[A-Za-z]+\.[A-Za-z]+)?$/;

function refuse(reason: string): BaseUrlCheck {
  return { ok: false, reason };
}

export function checkBaseUrl(input: string): BaseUrlCheck {
  const value = input.trim();
  if (value === "") return refuse("Enter the address of the API, for example https://api.example.com.");
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return refuse(`Start the address with http:// or https://, for example https://${value.replace(/^\/+/, "")}.`);
  }

  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse("This is not a valid address. Check it for typos, for example https://api.example.com.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refuse(`Only http:// and https:// addresses work here, not ${url.protocol}//.`);
  }
  if (url.username !== "" || url.password !== "") {
    return refuse("Remove the user name and password from the address: the API key goes in its own field.");
  }
  if (value.includes("?")) return refuse("Remove the query string (from “?” on): the base URL is only the address of the API.");
  if (value.includes("#")) return refuse("Remove the fragment (from “#” on): the base URL is only the address of the API.");

  let path = url.pathname.replace(/\/+$/, "");
  const fixes: BaseUrlFix[] = [];
  const operation = OPERATION_PATH.exec(path);
  let removedPath: string | undefined;
  if (operation) {
    removedPath = operation[0];
    path = path.slice(0, operation.index).replace(/\/+$/, "");
    fixes.push("removed-operation-path");
  }
  return { ok: true, baseUrl: `${url.origin}${path}`, fixes, removedPath };
}

export type BaseUrlWarning = "cross-origin" | "mixed-content" | "plain-http";

/**
 * Plain http hosts the served page's Content-Security-Policy lets Keyscope reach besides its own origin
 * (server/security-headers.ts): a root key travels over plain http only to this computer.
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
    warnings.push("plain-http");
  }
  if (target.origin !== page.origin) warnings.push("cross-origin");
  return warnings;
}

export type BaseUrlValidation = { ok: true; baseUrl: string } | { ok: false; error: InvalidConnectionError };

/** The base URL as requests use it, or why it cannot be used. "" and "/path" mean this page's own origin. */
export function validateBaseUrl(input: string): BaseUrlValidation {
  const trimmed = input.trim();
  if (trimmed === "" || trimmed.startsWith("/")) {
    if (trimmed.startsWith("//")) return { ok: false, error: new InvalidConnectionError("base-url-not-http") };
    if (/[?#]/.test(trimmed)) return { ok: false, error: new InvalidConnectionError("base-url-has-query") };
    return { ok: true, baseUrl: trimmed.replace(/\/+$/, "") };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    const problem = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? "base-url-unparsable" : "base-url-not-http";
    return { ok: false, error: new InvalidConnectionError(problem) };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, error: new InvalidConnectionError("base-url-not-http") };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, error: new InvalidConnectionError("base-url-has-credentials") };
  }
  if (url.search !== "" || url.hash !== "" || /[?#]/.test(trimmed)) {
    return { ok: false, error: new InvalidConnectionError("base-url-has-query") };
  }
  return { ok: true, baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}

/** Trims and drops trailing slashes; throws an InvalidConnectionError for anything but http(s) (or "" / "/path"). */
export function normalizeBaseUrl(input: string): string {
  const check = validateBaseUrl(input);
  if (!check.ok) throw check.error;
  return check.baseUrl;
}
