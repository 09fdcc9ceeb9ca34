/**
 * The one API client. It knows nothing about React: it sends a request, reads at most 2 MB of the answer,
 * and parses it (never casts it) into typed values or one of the named errors of ./api-errors.
 */
import * as v from "valibot";
import {
  ApiError,
  BODY_EXCERPT_MAX,
  InvalidConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  scrubSecrets,
  truncate,
  type UnexpectedResponseReason,
} from "./api-errors";
import {
  LIST_KEYS_PATH,
  REAL_SERVICE_LIST_KEYS_PATH,
  type ErrorDetailEntry,
  type Key,
  type ListKeysRequest,
} from "./contract";

export interface Connection {
  /** `https://api.example.com`, or "" for this page's own origin (the dev server and proxy mode serve /v2 there). */
  baseUrl: string;
  apiKey: string;
  /** The API whose keys to list; the real service's `apis.listKeys` requires it (CONTRACT.md §3). */
  apiId?: string | undefined;
}

export interface KeysPage {
  keys: Key[];
  cursor: string | undefined;
  hasMore: boolean;
  requestId: string | null;
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

// ---------------------------------------------------------------------------------------------------------------
// Base URL

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

/** Printable ASCII without spaces: what a key is, and what a header can carry without the browser refusing it. */
const KEY_SHAPE = /^[\x21-\x7e]+$/;
/** What `fetch` accepts as a header value: no line breaks, no characters beyond Latin-1. */
const HEADER_VALUE_SHAPE = /^[\t\x20-\x7e\x80-\xff]*$/;

// ---------------------------------------------------------------------------------------------------------------
// Schemas: lenient where the real service and the reference server differ, strict where the seed is.

/** A field kept when it has the right type and dropped otherwise. */
function lenient<TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.fallback(v.optional(schema), undefined);
}

const FiniteNumber = v.pipe(v.number(), v.finite());
const PlainObject = v.custom<Record<string, unknown>>(
  (input) => typeof input === "object" && input !== null && !Array.isArray(input),
);

const MetaSchema = lenient(v.looseObject({ requestId: lenient(v.string()) }));

const KeySchema = v.looseObject({
  keyId: v.string(),
  name: v.string(),
  start: lenient(v.string()),
  enabled: lenient(v.boolean()),
  createdAt: lenient(FiniteNumber),
  expires: lenient(FiniteNumber),
  meta: lenient(PlainObject),
});

const PaginationSchema = v.looseObject({ cursor: lenient(v.string()), hasMore: v.boolean() });

const KeysEnvelopeSchema = v.looseObject({
  meta: MetaSchema,
  data: v.union([v.array(KeySchema), v.looseObject({ keys: v.array(KeySchema) })]),
  pagination: lenient(PaginationSchema),
});

const ErrorDetailEntrySchema = v.looseObject({ location: v.string(), message: v.string(), fix: lenient(v.string()) });

const ErrorFieldsSchema = v.looseObject({
  status: lenient(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599))),
  title: lenient(v.string()),
  detail: lenient(v.string()),
  type: lenient(v.string()),
  errors: lenient(v.array(v.unknown())),
});

const ErrorEnvelopeSchema = v.looseObject({ meta: MetaSchema, error: v.pipe(PlainObject, ErrorFieldsSchema) });

// ---------------------------------------------------------------------------------------------------------------
// listKeys

/**
 * One page of keys, or a KeyscopeError; a caller's abort is re-thrown as is.
 * `POST {baseUrl}/v2/keys.listKeys` (the reference server) by default; with an `apiId`, the real service's
 * `POST {baseUrl}/v2/apis.listKeys`, falling back to `keys.listKeys` where that operation does not exist.
 * When `keys.listKeys` does not exist either and no `apiId` is known, an InvalidConnectionError asks for one.
 */
export async function listKeys(
  connection: Connection,
  request: ListKeysRequest = {},
  options: RequestOptions = {},
): Promise<KeysPage> {
  // The connection's API ID picks the real service's operation; an `apiId` in the request alone is a filter.
  const connectionApiId = connection.apiId?.trim() || undefined;
  const apiId = request.apiId ?? connectionApiId;
  const body = JSON.stringify(
    Object.fromEntries(Object.entries({ ...request, apiId }).filter(([, value]) => value !== undefined)),
  );
  const paths = listKeysPaths(connectionApiId);
  for (const [index, path] of paths.entries()) {
    try {
      return toKeysPage(await post(connection, path, body, options));
    } catch (error) {
      if (!isMissingOperation(error)) throw error;
      if (index === paths.length - 1) throw apiId === undefined ? new InvalidConnectionError("api-id-required") : error;
    }
  }
  throw new InvalidConnectionError("api-id-required");
}

/** The list operations to try, in order, for a request with or without an `apiId`. */
export function listKeysPaths(apiId: string | undefined): readonly string[] {
  return apiId === undefined ? [LIST_KEYS_PATH] : [REAL_SERVICE_LIST_KEYS_PATH, LIST_KEYS_PATH];
}

/** A 404 that is not the service's error envelope: the server has no such operation (a router's own 404). */
export function isMissingOperation(error: unknown): boolean {
  return error instanceof UnexpectedResponseError && error.status === 404;
}

interface Received {
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

async function post(connection: Connection, path: string, body: string, options: RequestOptions): Promise<Received> {
  const baseUrl = normalizeBaseUrl(connection.baseUrl);
  const apiKey = connection.apiKey.trim();
  const rawAuthorization = options.authorization;
  if (rawAuthorization === undefined && apiKey !== "" && !KEY_SHAPE.test(apiKey)) {
    throw new InvalidConnectionError("key-has-invalid-characters");
  }
  if (rawAuthorization !== undefined && !HEADER_VALUE_SHAPE.test(rawAuthorization)) {
    throw new InvalidConnectionError("key-has-invalid-characters");
  }
  // A pasted header value is scrubbed whole and word by word (the key in it), short words like "Bearer" aside.
  const pastedWords = (rawAuthorization ?? "").split(/\s+/).filter((word) => word.length >= 8);
  const secrets = [apiKey, connection.apiKey, rawAuthorization ?? "", ...pastedWords].filter((secret) => secret !== "");
  const scrub = (text: string) => scrubSecrets(text, secrets);
  const url = `${baseUrl}${path}`;
  const safeUrl = scrub(url);
  const authorization = rawAuthorization ?? (apiKey === "" ? undefined : `Bearer ${apiKey}`);
  const keySent = authorization !== undefined && authorization.trim() !== "";

  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (keySent) headers.Authorization = authorization;

  const callerSignal = options.signal;
  callerSignal?.throwIfAborted();
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new TimeoutError({ url: safeUrl, timeoutMs }));
  }, timeoutMs);
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener("abort", forwardAbort, { once: true });

  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  // Rewrites whatever a failed step threw into the error the caller should see.
  // `answered`: the status and headers had arrived, so CORS let the page read them and cannot be the cause.
  const rethrow = (cause: unknown, network: boolean, answered = false): never => {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timedOut) throw new TimeoutError({ url: safeUrl, timeoutMs });
    if (network) throw new NetworkError({ url: safeUrl, offline: isOffline(), crossOrigin: !answered && isCrossOrigin(baseUrl) });
    throw cause;
  };

  try {
    let response: Response;
    try {
      // The race makes a fetch that ignores its signal still give up on time.
      response = await untilAborted(
        fetchImpl(url, {
          method: "POST",
          headers,
          body,
          credentials: "omit",
          redirect: "follow",
          referrerPolicy: "no-referrer",
          cache: "no-store",
          signal: controller.signal,
        }),
        controller.signal,
      );
    } catch (cause) {
      return rethrow(cause, true);
    }

    const contentType = response.headers.get("content-type");
    const headerRequestId = response.headers.get("x-request-id");
    const common = {
      status: response.status,
      statusText: response.statusText,
      contentType: contentType === null ? null : truncate(scrub(contentType), 200),
      headerRequestId: headerRequestId === null ? null : scrub(headerRequestId),
      url: safeUrl,
      keySent,
      scrub,
    };

    let text: string;
    try {
      const read = await readCapped(response, controller.signal);
      if (read === null) {
        throw new UnexpectedResponseError({
          status: response.status,
          contentType: common.contentType,
          reason: "too-large",
          bodyExcerpt: `The answer was larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB; Keyscope stopped reading it.`,
          requestId: common.headerRequestId,
          url: safeUrl,
        });
      }
      text = read;
    } catch (cause) {
      if (cause instanceof UnexpectedResponseError) throw cause;
      // The connection broke mid-body: as unreadable as no answer at all.
      return rethrow(cause, true, true);
    }

    const receivedAt = Date.now();
    return {
      ...common,
      text,
      receivedAt,
      retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after"), receivedAt),
      redirectedTo: response.redirected && response.url !== "" ? scrub(response.url) : null,
    };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", forwardAbort);
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Which abort it was (the caller's or the timeout) is decided by the caller of this, not by the reason.
    const onAbort = () => reject(new DOMException("The request was aborted", "AbortError"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
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

function isOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

function isCrossOrigin(baseUrl: string): boolean {
  if (typeof location === "undefined") return false;
  try {
    return new URL(baseUrl === "" ? "/" : baseUrl, location.href).origin !== location.origin;
  } catch {
    return false;
  }
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

// ---------------------------------------------------------------------------------------------------------------
// Parsing the answer

type Parsed = { kind: "json"; value: unknown } | { kind: "unexpected"; reason: UnexpectedResponseReason };

function parseBody(received: Received): Parsed {
  const trimmed = received.text.trim();
  if (trimmed === "") return { kind: "unexpected", reason: "empty" };
  if (!trimmed.startsWith("<")) {
    try {
      return { kind: "json", value: JSON.parse(trimmed) as unknown };
    } catch {
      // Not JSON: what it is instead decides the reason below.
    }
  }
  const contentType = received.contentType?.toLowerCase() ?? "";
  if (contentType.includes("html") || trimmed.startsWith("<")) return { kind: "unexpected", reason: "html" };
  const looksJson = /[/+]json\b/.test(contentType) || trimmed.startsWith("{") || trimmed.startsWith("[");
  return { kind: "unexpected", reason: looksJson ? "invalid-json" : "not-envelope" };
}

function toKeysPage(received: Received): KeysPage {
  const parsed = parseBody(received);
  if (parsed.kind === "unexpected") throw unexpected(received, parsed.reason, null);

  const apiError = toApiError(received, parsed.value);
  if (apiError) throw apiError;

  const success = received.status >= 200 && received.status < 300;
  const envelope = v.safeParse(KeysEnvelopeSchema, parsed.value);
  if (!success || !envelope.success) throw unexpected(received, "not-envelope", parsed.value);

  const { data, meta, pagination } = envelope.output;
  const keys = (Array.isArray(data) ? data : data.keys).map(toKey);
  return {
    keys,
    cursor: pagination?.hasMore ? pagination.cursor : undefined,
    hasMore: pagination?.hasMore ?? false,
    requestId: meta?.requestId ?? received.headerRequestId,
  };
}

function toKey(parsed: v.InferOutput<typeof KeySchema>): Key {
  const key: Key = { keyId: parsed.keyId, name: parsed.name };
  if (parsed.start !== undefined) key.start = parsed.start;
  if (parsed.enabled !== undefined) key.enabled = parsed.enabled;
  if (parsed.createdAt !== undefined) key.createdAt = parsed.createdAt;
  if (parsed.expires !== undefined) key.expires = parsed.expires;
  if (parsed.meta !== undefined) key.meta = parsed.meta;
  return key;
}

/**
 * The error envelope `{meta, error: {status, title, detail, type, errors?}}` as an ApiError, on any status.
 * An RFC 9457 problem document (the same fields at the top level) counts too, when it says it is one.
 */
function toApiError(received: Received, value: unknown): ApiError | null {
  const envelope = v.safeParse(ErrorEnvelopeSchema, value);
  let fields: v.InferOutput<typeof ErrorFieldsSchema>;
  let requestId: string | undefined;
  if (envelope.success) {
    fields = envelope.output.error;
    requestId = envelope.output.meta?.requestId;
  } else {
    const problem = v.safeParse(v.pipe(PlainObject, ErrorFieldsSchema), value);
    if (!problem.success) return null;
    const saysProblem = received.contentType?.toLowerCase().includes("problem+json") ?? false;
    const { type, title, status } = problem.output;
    if (!saysProblem && (type === undefined || title === undefined || status === undefined)) return null;
    fields = problem.output;
  }
  if (fields.type === undefined && fields.title === undefined && fields.detail === undefined) return null;

  // The HTTP status is the truth, except for an error envelope on a 2xx, which says what it is itself.
  const status = received.status >= 400 || fields.status === undefined ? received.status : fields.status;
  const title = received.scrub(fields.title ?? (received.statusText || reasonPhrase(status)));
  const errors = (fields.errors ?? []).flatMap((entry): ErrorDetailEntry[] => {
    const parsed = v.safeParse(ErrorDetailEntrySchema, entry);
    if (!parsed.success) return [];
    const { location, message, fix } = parsed.output;
    const scrubbed: ErrorDetailEntry = { location: received.scrub(location), message: received.scrub(message) };
    if (fix !== undefined) scrubbed.fix = received.scrub(fix);
    return [scrubbed];
  });
  return new ApiError({
    status,
    title,
    detail: fields.detail === undefined ? title : received.scrub(fields.detail),
    type: received.scrub(fields.type ?? ""),
    requestId: requestId === undefined ? received.headerRequestId : received.scrub(requestId),
    errors,
    retryAfterSeconds: received.retryAfterSeconds,
    keySent: received.keySent,
    url: received.url,
    redirectedTo: received.redirectedTo,
    receivedAt: received.receivedAt,
  });
}

function unexpected(received: Received, reason: UnexpectedResponseReason, json: unknown): UnexpectedResponseError {
  const meta = v.safeParse(v.looseObject({ meta: MetaSchema }), json);
  const requestId = meta.success ? meta.output.meta?.requestId : undefined;
  return new UnexpectedResponseError({
    status: received.status,
    contentType: received.contentType,
    reason,
    bodyExcerpt: excerpt(received, reason),
    requestId: requestId === undefined ? received.headerRequestId : received.scrub(requestId),
    url: received.url,
  });
}

/** Plain text a person can read: an HTML page reduced to its words; control characters dropped; the key scrubbed. */
function excerpt(received: Received, reason: UnexpectedResponseReason): string {
  // Bound the work on hostile bodies: the excerpt only ever needs the beginning.
  let text = received.scrub(received.text).slice(0, 64 * 1024);
  if (reason === "html") {
    text = text
      .replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, " ")
      .replace(/<!--[\s\S]*?(-->|$)/g, " ")
      .replace(/<[^>]*>?/g, " ")
      .replace(/&nbsp;/gi, " ")
      .replace(/&lt;/gi, "<")
      .replace(/&gt;/gi, ">")
      .replace(/&quot;/gi, '"')
      .replace(/&#39;/gi, "'")
      .replace(/&amp;/gi, "&");
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  text = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").replace(/\s+/g, " ").trim();
  return truncate(received.scrub(text), BODY_EXCERPT_MAX);
}

const REASON_PHRASES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? `HTTP ${status}`;
}
