/**
 * The errors Keyscope can meet, as values with names. Every one renders a guided panel
 * (features/troubleshoot); none of them ever carries the API key.
 */
import { errorCodeFromType, parseErrorCode, type ErrorCode, type ErrorDetailEntry } from "./contract";
import { CodeLoadError } from "./retryable-lazy";

type KindOf<Code> = Code extends `err:${string}:${infer Category}:${infer Kind}` ? `${Category}:${Kind}` : never;
/** `<category>:<kind>` of each error code the contract names (docs/api.md#errors-and-their-codes). */
export type ErrorKind = KindOf<ErrorCode>;

export interface ApiErrorInit {
  status: number;
  title: string;
  detail: string;
  type: string;
  requestId: string | null;
  errors: ErrorDetailEntry[];
  retryAfterSeconds: number | null;
  keySent: boolean;
  url: string;
  redirectedTo?: string | null;
  receivedAt?: number;
}

/** A well-formed error envelope: the API (or something speaking its format) refused the request. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  /** `err:<system>:<category>:<kind>` from `error.type`, whatever the system; null when the type names none. */
  readonly code: string | null;
  /**
   * `<category>:<kind>` of the code, whatever its `<system>` (the real service's `unkey`, the reference server's
   * `svc`): what the error catalog's entries and the dashboard's checks go by. Null when the type names no code.
   */
  readonly kind: string | null;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  readonly requestId: string | null;
  readonly errors: ErrorDetailEntry[];
  /** From the Retry-After header, in seconds from `receivedAt`. */
  readonly retryAfterSeconds: number | null;
  /** The request carried an Authorization header. */
  readonly keySent: boolean;
  readonly url: string;
  /** The final address when the request was redirected: browsers drop Authorization on a cross-origin redirect. */
  readonly redirectedTo: string | null;
  /** When the answer arrived (ms since the epoch), so a countdown can be derived instead of stored. */
  readonly receivedAt: number;
  /**
   * The API says no credentials arrived: `…:authentication:missing`, or the real service's
   * 400 `…:application:invalid_input` with an `errors[]` entry located in `security`.
   */
  readonly missingCredentials: boolean;

  constructor(init: ApiErrorInit) {
    const code = errorCodeFromType(init.type);
    super(`${init.title} (HTTP ${init.status}${code ? `, ${code}` : ""}): ${init.detail}`);
    this.status = init.status;
    this.code = code;
    const parts = code === null ? null : parseErrorCode(code);
    this.kind = parts === null ? null : `${parts.category}:${parts.kind}`;
    this.title = init.title;
    this.detail = init.detail;
    this.type = init.type;
    this.requestId = init.requestId;
    this.errors = init.errors;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.keySent = init.keySent;
    this.url = init.url;
    this.redirectedTo = init.redirectedTo ?? null;
    this.receivedAt = init.receivedAt ?? Date.now();
    this.missingCredentials = isMissingCredentials(code, init.errors);
  }

  /** When the API allows the next request (ms since the epoch), from Retry-After; null when it did not say. */
  get retryAt(): number | null {
    return this.retryAfterSeconds === null ? null : this.receivedAt + this.retryAfterSeconds * 1000;
  }
}

/** An ApiError of one of the contract's kinds (a kind it does not name does not compile). */
export function isApiErrorOf(error: unknown, kind: ErrorKind): error is ApiError {
  return error instanceof ApiError && error.kind === kind;
}

function isMissingCredentials(code: string | null, errors: ErrorDetailEntry[]): boolean {
  const parts = code === null ? null : parseErrorCode(code);
  if (!parts) return false;
  if (parts.category === "authentication" && parts.kind === "missing") return true;
  return (
    parts.category === "application" &&
    parts.kind === "invalid_input" &&
    errors.some((entry) => entry.location.toLowerCase() === "security")
  );
}

/** Why nothing readable came back (lib/api/network-failure classifies it, once, for every page). */
export type NetworkFailureKind = "offline" | "blocked-by-page" | "cors" | "redirect" | "unreachable";

export interface NetworkErrorInit {
  url: string;
  offline: boolean;
  crossOrigin: boolean;
  /** Left out: offline, else CORS across origins, else unreachable. */
  failure?: NetworkFailureKind;
}

/** No response could be read: offline, refused by this page, CORS, a redirect it may not follow, or nothing answering (down, DNS). */
export class NetworkError extends Error {
  override readonly name = "NetworkError";
  readonly url: string;
  /** `navigator.onLine === false` when the request failed. */
  readonly offline: boolean;
  /** The API is on another origin than this page. */
  readonly crossOrigin: boolean;
  readonly failure: NetworkFailureKind;

  constructor(init: NetworkErrorInit) {
    super(`Could not read an answer from ${init.url}`);
    this.url = init.url;
    this.offline = init.offline;
    this.crossOrigin = init.crossOrigin;
    this.failure = init.failure ?? (init.offline ? "offline" : init.crossOrigin ? "cors" : "unreachable");
  }
}

export class TimeoutError extends Error {
  override readonly name = "TimeoutError";
  readonly url: string;
  readonly timeoutMs: number;

  constructor(init: { url: string; timeoutMs: number }) {
    super(`No answer from ${init.url} within ${init.timeoutMs} ms`);
    this.url = init.url;
    this.timeoutMs = init.timeoutMs;
  }
}

export type UnexpectedResponseReason = "empty" | "invalid-json" | "not-envelope" | "html" | "too-large";

export interface UnexpectedResponseErrorInit {
  status: number;
  contentType: string | null;
  reason: UnexpectedResponseReason;
  bodyExcerpt: string;
  requestId: string | null;
  url: string;
}

/** An answer arrived, but it is not the API's envelope: a proxy page, an empty or cut-off body, a foreign format. */
export class UnexpectedResponseError extends Error {
  override readonly name = "UnexpectedResponseError";
  readonly status: number;
  readonly contentType: string | null;
  readonly reason: UnexpectedResponseReason;
  /** At most 500 characters of the body as plain text, the key scrubbed out. Never render it as HTML. */
  readonly bodyExcerpt: string;
  readonly requestId: string | null;
  readonly url: string;

  constructor(init: UnexpectedResponseErrorInit) {
    super(`Unexpected answer from ${init.url} (HTTP ${init.status}, ${init.reason})`);
    this.status = init.status;
    this.contentType = init.contentType;
    this.reason = init.reason;
    this.bodyExcerpt = truncate(init.bodyExcerpt, BODY_EXCERPT_MAX);
    this.requestId = init.requestId;
    this.url = init.url;
  }
}

export type InvalidConnectionProblem =
  | "base-url-empty"
  | "base-url-not-http"
  | "base-url-unparsable"
  | "base-url-has-credentials"
  | "base-url-has-query"
  | "key-has-invalid-characters"
  | "api-id-required";

/** The short form of each problem; lib/check-base-url gives a base URL's own reason instead. */
const INVALID_CONNECTION_MESSAGES: Record<InvalidConnectionProblem, string> = {
  "base-url-empty": "The base URL is empty.",
  "base-url-not-http": "The base URL must start with http:// or https://.",
  "base-url-unparsable": "The base URL is not a web address.",
  "base-url-has-credentials": "The base URL must not contain a user name or password.",
  "base-url-has-query": "The base URL must not contain ? or #.",
  "key-has-invalid-characters":
    "The API key contains spaces, line breaks or characters that cannot be sent in a header.",
  "api-id-required": "This server has no keys.listKeys operation: it lists keys per API, so it needs an API ID.",
};

/**
 * The connection settings cannot make a request at all: caught before anything is sent, or (for a missing
 * API ID) when the server turns out to have only the real service's per-API list operation.
 */
export class InvalidConnectionError extends Error {
  override readonly name = "InvalidConnectionError";
  readonly field: "baseUrl" | "apiKey" | "apiId";
  readonly problem: InvalidConnectionProblem;

  constructor(problem: InvalidConnectionProblem, message: string = INVALID_CONNECTION_MESSAGES[problem]) {
    super(message);
    this.problem = problem;
    this.field = problem.startsWith("key-") ? "apiKey" : problem.startsWith("api-id") ? "apiId" : "baseUrl";
  }
}

/** Something that is none of the above went wrong inside Keyscope itself (a render bug, say). */
export class InternalError extends Error {
  override readonly name = "InternalError";
  /** The original error's name and message, truncated; shown as plain text to help a bug report. */
  readonly summary: string;

  constructor(summary: string) {
    super("Keyscope ran into an unexpected problem");
    this.summary = truncate(summary, BODY_EXCERPT_MAX);
  }
}

export type KeyscopeError =
  | ApiError
  | NetworkError
  | TimeoutError
  | UnexpectedResponseError
  | InvalidConnectionError
  | CodeLoadError
  | InternalError;

export function isKeyscopeError(value: unknown): value is KeyscopeError {
  return (
    value instanceof ApiError ||
    value instanceof NetworkError ||
    value instanceof TimeoutError ||
    value instanceof UnexpectedResponseError ||
    value instanceof InvalidConnectionError ||
    value instanceof CodeLoadError ||
    value instanceof InternalError
  );
}

/**
 * Whatever was thrown, as a KeyscopeError; never throws. Pass the key as a secret to scrub it from the
 * summary of a foreign error (a component's bug could have put it in a message).
 */
export function toKeyscopeError(value: unknown, secrets: readonly string[] = []): KeyscopeError {
  let summary: string;
  try {
    // Even `instanceof` can throw (a Proxy's getPrototypeOf trap), so the check is inside the try.
    if (isKeyscopeError(value)) return value;
    summary = value instanceof Error ? `${value.name}: ${value.message}` : `Thrown value: ${String(value)}`;
  } catch {
    summary = "A value that cannot be shown was thrown";
  }
  return new InternalError(scrubSecrets(summary, secrets));
}

export const BODY_EXCERPT_MAX = 500;
export const REDACTED = "[redacted]";

/** Cut to at most `max` UTF-16 units, never through a surrogate pair, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

const remembered = new Set<string>();

/**
 * A secret this page holds (the stored key): from now on every scrub removes it, whether or not the caller
 * passes it, so a foreign error's message or a bug report cannot carry it.
 */
export function rememberSecret(secret: string): void {
  if (secret.trim() !== "") remembered.add(secret);
}

/** A word of a pasted value shorter than this is not taken for (a part of) a key: "Bearer", "Token". */
const MIN_SECRET_PART = 6;

/** The key in every form it may appear in: as given, trimmed, without `Authorization: Bearer `, and each word of a pasted value. */
function secretForms(secret: string): string[] {
  const trimmed = secret.trim();
  const bare = trimmed.replace(/^(authorization\s*:\s*)?bearer\s+/i, "").trim();
  const parts = bare.split(/\s+/).filter((part) => part.length >= MIN_SECRET_PART && !/^bearer$/i.test(part));
  return [secret, trimmed, bare, ...parts].filter((form) => form !== "");
}

/**
 * The one scrub: every form of each secret (and of every remembered one), raw, JSON-escaped and URL-encoded,
 * becomes a marker. Used by the client, the error panel, the diagnostics and the report alike.
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  const forms = [...new Set([...secrets, ...remembered].flatMap(secretForms))]
    // Longest first, so a part never leaves the rest of a longer form behind.
    .sort((a, b) => b.length - a.length);
  let result = text;
  for (const form of forms) {
    const encodings = new Set([form, JSON.stringify(form).slice(1, -1), encodeURIComponent(form)]);
    for (const encoded of encodings) result = result.split(encoded).join(REDACTED);
  }
  return result.replaceAll(`${REDACTED}${REDACTED}`, REDACTED);
}
