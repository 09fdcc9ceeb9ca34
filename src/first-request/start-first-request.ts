/**
 * The keys page's first request, started by the first module the page runs, while the app's code is still on
 * its way (src/lib/api/first-request.ts adopts it). It stays small and imports nothing that would pull the app
 * into the page's first file (the key-store imports React): the few facts it shares with the app's key-store
 * and transport (the stored items, the request's exact shape) are repeated here, and
 * test/src/first-request/start-first-request.test.ts checks that the app's client adopts what this starts.
 * A request that does not match is simply not adopted.
 */
import type { FirstRequest } from "../lib/api/first-request";
import { FORGET_MARK_ITEM, forgottenSince, KEY_MARK_ITEM } from "../features/connect/forget-mark";
import { bearer, LIST_KEYS_PATH, REAL_SERVICE_LIST_KEYS_PATH } from "../lib/contract";

/** src/features/connect/key-store.ts's items. */
const API_KEY_ITEM = "keyscope.apiKey";
const BASE_URL_ITEM = "keyscope.baseUrl";
const API_ID_ITEM = "keyscope.apiId";
/** The transport's KEY_SHAPE: a key it would refuse to send is not sent early either. */
const KEY_SHAPE = /^[\x21-\x7e]+$/;
/** Where the app shows the keys list first: the keys page, and home, which leads there when a key is stored. */
const KEYS_PAGE_PATHS = new Set(["/", "/keys", "/keys/"]);

export interface FirstRequestEnvironment {
  pathname: string;
  storage: Pick<Storage, "getItem">;
  /** localStorage, where Forget key leaves its mark: a key forgotten in another tab is not sent. */
  sharedStorage?: Pick<Storage, "getItem">;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

function readItem(storage: FirstRequestEnvironment["storage"], item: string): string | null {
  try {
    return storage.getItem(item);
  } catch {
    return null;
  }
}

/**
 * The stored base URL as the transport would use it, or null when it is not already in that form (then the
 * app sends its own request): "/path" (this origin), or an http(s) origin with an optional path, no
 * trailing slash, no credentials, query or fragment.
 */
function requestBaseUrl(stored: string): string | null {
  if (/^\/(?!\/)[^?#]*[^/?#]$/.test(stored)) return stored;
  try {
    const url = new URL(stored);
    const canonical = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
    const plain = (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "";
    return plain && canonical === stored ? stored : null;
  } catch {
    return null;
  }
}

/** The request the keys list will send for its first page, or null when this tab should not send it early. */
export function firstRequestOf(
  environment: Pick<FirstRequestEnvironment, "pathname" | "storage" | "sharedStorage">,
): { url: string; init: RequestInit } | null {
  if (!KEYS_PAGE_PATHS.has(environment.pathname)) return null;
  // A key copied from the tab that opened this one, forgotten there since: the app will drop it, and it is not sent.
  const { sharedStorage } = environment;
  if (
    sharedStorage &&
    forgottenSince(readItem(environment.storage, KEY_MARK_ITEM), readItem(sharedStorage, FORGET_MARK_ITEM))
  )
    return null;
  const apiKey = readItem(environment.storage, API_KEY_ITEM)?.trim() ?? "";
  const storedBaseUrl = readItem(environment.storage, BASE_URL_ITEM);
  // The key-store has no connection without a base URL ("" included): key entry shows, nothing is listed.
  if (apiKey === "" || !KEY_SHAPE.test(apiKey) || !storedBaseUrl) return null;
  const baseUrl = requestBaseUrl(storedBaseUrl);
  if (baseUrl === null) return null;
  const apiId = readItem(environment.storage, API_ID_ITEM)?.trim() || undefined;
  return {
    url: `${baseUrl}${apiId === undefined ? LIST_KEYS_PATH : REAL_SERVICE_LIST_KEYS_PATH}`,
    // The transport's request, field for field.
    init: {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: bearer(apiKey) },
      body: JSON.stringify(apiId === undefined ? {} : { apiId }),
      credentials: "omit",
      redirect: "follow",
      referrerPolicy: "no-referrer",
      cache: "no-store",
    },
  };
}

function headersOf(init: RequestInit): string {
  return JSON.stringify([...new Headers(init.headers).entries()].sort());
}

function sameRequest(a: RequestInit, b: RequestInit): boolean {
  return (
    a.method === b.method &&
    a.body === b.body &&
    a.credentials === b.credentials &&
    a.redirect === b.redirect &&
    a.referrerPolicy === b.referrerPolicy &&
    a.cache === b.cache &&
    headersOf(a) === headersOf(b)
  );
}

/**
 * When this tab holds a key and opens on the keys page: start the list's first request, and return the hand-over
 * the client adopts it from. Otherwise nothing happens.
 */
export function startFirstRequest(environment: FirstRequestEnvironment): FirstRequest | null {
  const request = firstRequestOf(environment);
  if (request === null) return null;
  let response: Promise<Response> | undefined = environment.fetch(request.url, request.init);
  // A failure is the adopter's to report (as the client reports any); never an unhandled rejection here.
  response.catch(() => undefined);
  return {
    take(url, init) {
      if (response === undefined || url !== request.url || !sameRequest(init, request.init)) return undefined;
      const taken = response;
      response = undefined;
      return taken;
    },
  };
}
