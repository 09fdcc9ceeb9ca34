/**
 * How a request travels: one POST with the key, one deadline, one offline check, at most 2 MB read back.
 * It knows nothing about what the answer means (./parse-response) or which operation it is (one file each).
 */
import {
  InvalidConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  scrubSecrets,
  truncate,
} from "../api-errors";
import { bearer } from "../contract";
import { normalizeBaseUrl } from "../check-base-url";
import { recordRequest, redactRequestBody, redactResponseBody } from "../request-journal";
import { deadline, defaultFetch, isCrossOrigin, isOffline, untilAborted } from "./fetch-tools";
import { classifyNetworkFailure } from "./network-failure";

export interface Connection {
  /** `https://api.example.com`, or "" for this page's own origin (the dev server and proxy mode serve /v2 there). */
  baseUrl: string;
  apiKey: string;
  /** The API whose keys to list; the real service's `apis.listKeys` requires it (docs/api.md#operations). */
  apiId?: string | undefined;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * The `Authorization` value exactly as given instead of `Bearer <apiKey>`: diagnostics send a pasted key
   * unchanged so that the API can show what is wrong with it. It is scrubbed like the key.
   */
  authorization?: string;
}

export const REQUEST_TIMEOUT_MS = 15_000;
/** A page of 100 keys is a few tens of kilobytes; anything near this is not the API talking. */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** Printable ASCII without spaces: what a key is, and what a header can carry without the browser refusing it. */
const KEY_SHAPE = /^[\x21-\x7e]+$/;
/** What `fetch` accepts as a header value: no line breaks, no characters beyond Latin-1. */
const HEADER_VALUE_SHAPE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** What came back, with everything the server echoed already scrubbed of the key. */
export interface Received {
  status: number;
  statusText: string;
  contentType: string | null;
  headerRequestId: string | null;
  retryAfterSeconds: number | null;
  text: string;
  url: string;
  redirectedTo: string | null;
  keySent: boolean;
  receivedAt: number;
  /** Removes the key from anything the server sent back before it goes into an error. */
  scrub: (text: string) => string;
}

/**
 * `POST {baseUrl}{path}` with the key, or a KeyscopeError for why nothing readable came back; a caller's
 * abort is re-thrown as is (react-query cancels that way).
 */
export async function send(
  connection: Connection,
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<Received> {
  const baseUrl = normalizeBaseUrl(connection.baseUrl);
  const apiKey = connection.apiKey.trim();
  const rawAuthorization = options.authorization;
  if (rawAuthorization === undefined && apiKey !== "" && !KEY_SHAPE.test(apiKey)) {
    throw new InvalidConnectionError("key-has-invalid-characters");
  }
  if (rawAuthorization !== undefined && !HEADER_VALUE_SHAPE.test(rawAuthorization)) {
    throw new InvalidConnectionError("key-has-invalid-characters");
  }
  const secrets = [connection.apiKey, rawAuthorization ?? ""];
  const scrub = (text: string) => scrubSecrets(text, secrets);
  const url = `${baseUrl}${path}`;
  const safeUrl = scrub(url);
  const authorization = rawAuthorization ?? (apiKey === "" ? undefined : bearer(apiKey));
  const keySent = authorization !== undefined && authorization.trim() !== "";

  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (keySent) headers.Authorization = authorization;

  const requestBody = JSON.stringify(body);
  const journal = recordRequest({
    method: "POST",
    url: safeUrl,
    requestBody: redactRequestBody(requestBody, scrub),
    keySent,
  });
  try {
    const received = await exchange(url, safeUrl, baseUrl, { headers, requestBody, keySent, scrub }, options);
    journal({
      status: received.status,
      requestId: received.headerRequestId ?? requestIdIn(received.text),
      responseBody: redactResponseBody(scrub(received.text)),
    });
    return received;
  } catch (error) {
    const status = error instanceof UnexpectedResponseError ? error.status : null;
    journal({
      status,
      requestId: null,
      responseBody: error instanceof Error ? scrub(`${error.name}: ${error.message}`) : "",
    });
    throw error;
  }
}

interface Outgoing {
  headers: Record<string, string>;
  requestBody: string;
  keySent: boolean;
  scrub: (text: string) => string;
}

/** Sends the request and reads the answer: what `send` records in the journal around it. */
async function exchange(
  url: string,
  safeUrl: string,
  baseUrl: string,
  outgoing: Outgoing,
  options: RequestOptions,
): Promise<Received> {
  const { headers, requestBody, keySent, scrub } = outgoing;
  const callerSignal = options.signal;
  callerSignal?.throwIfAborted();
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const { signal, timedOut } = deadline(timeoutMs, callerSignal);
  // Why nothing readable came back. `answered`: the status and headers had arrived, so CORS cannot be the cause.
  const unreadable = async (answered: boolean): Promise<never> => {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timedOut()) throw new TimeoutError({ url: safeUrl, timeoutMs });
    const crossOrigin = isCrossOrigin(baseUrl);
    const failure = answered
      ? isOffline()
        ? "offline"
        : "unreachable"
      : await classifyNetworkFailure(url, baseUrl, { fetch: options.fetch, signal });
    if (callerSignal?.aborted) throw callerSignal.reason;
    throw new NetworkError({ url: safeUrl, offline: isOffline(), crossOrigin: !answered && crossOrigin, failure });
  };

  let response: Response;
  try {
    response = await untilAborted(
      (options.fetch ?? defaultFetch)(url, {
        method: "POST",
        headers,
        body: requestBody,
        credentials: "omit",
        redirect: "follow",
        referrerPolicy: "no-referrer",
        cache: "no-store",
        signal,
      }),
      signal,
    );
  } catch {
    return await unreadable(false);
  }

  const contentType = response.headers.get("content-type");
  const headerRequestId = response.headers.get("x-request-id");
  const scrubbedContentType = contentType === null ? null : truncate(scrub(contentType), 200);
  const scrubbedRequestId = headerRequestId === null ? null : scrub(headerRequestId);

  let text: string | null;
  try {
    text = await readCapped(response, signal);
  } catch {
    // The connection broke mid-body: as unreadable as no answer at all.
    return await unreadable(true);
  }
  if (text === null) {
    throw new UnexpectedResponseError({
      status: response.status,
      contentType: scrubbedContentType,
      reason: "too-large",
      bodyExcerpt: `The answer was larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB; Keyscope stopped reading it.`,
      requestId: scrubbedRequestId,
      url: safeUrl,
    });
  }

  const receivedAt = Date.now();
  return {
    status: response.status,
    statusText: response.statusText,
    contentType: scrubbedContentType,
    headerRequestId: scrubbedRequestId,
    url: safeUrl,
    keySent,
    scrub,
    text,
    receivedAt,
    retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after"), receivedAt),
    redirectedTo: response.redirected && response.url !== "" ? scrub(response.url) : null,
  };
}

/**
 * The envelope's `meta.requestId`, for the journal only: a pattern over the start of the text instead of a
 * second parse of up to 2 MB (both the reference server and the real service write `meta` first).
 */
function requestIdIn(text: string): string | null {
  return /"requestId"\s*:\s*"([^"\\]{1,200})"/.exec(text.slice(0, 2000))?.[1] ?? null;
}

/** The body as text, or null when it is larger than MAX_RESPONSE_BYTES (the rest is then not downloaded). */
async function readCapped(response: Response, signal: AbortSignal): Promise<string | null> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let total = 0;
  let text = "";
  try {
    for (;;) {
      const { done, value } = await untilAborted(reader.read(), signal);
      if (done) break;
      total += value.byteLength;
      if (total > MAX_RESPONSE_BYTES) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (cause) {
    await reader.cancel().catch(() => undefined);
    throw cause;
  }
  return text + decoder.decode();
}

/** `Retry-After` as seconds from `now`: delta-seconds or an HTTP-date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/[a-z]/i.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
