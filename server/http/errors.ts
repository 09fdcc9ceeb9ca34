import { ERROR_KINDS, errorTypeUrl, type ErrorBody, type ErrorDetailEntry } from "../../src/lib/contract";
import { JSON_HEADERS } from "./answers";

/** Kinds only this server produces, beside the contract's: failures of its own routing and proxy. */
export const LOCAL_ERROR_KINDS = {
  "err:keyscope:routing:not_found": {
    status: 404,
    title: "Not Found",
    detail: "No operation exists at this path",
  },
  "err:keyscope:routing:method_not_allowed": {
    status: 405,
    title: "Method Not Allowed",
    detail: "The operation exists but not with this HTTP method",
  },
  "err:keyscope:proxy:upstream_unreachable": {
    status: 502,
    title: "Bad Gateway",
    detail: "The upstream API could not be reached",
  },
  "err:keyscope:proxy:upstream_redirect": {
    status: 502,
    title: "Bad Gateway",
    detail: "The upstream API answered with a redirect to another origin",
  },
} as const satisfies Record<string, { status: number; title: string; detail: string }>;

export const SERVER_ERROR_KINDS = { ...ERROR_KINDS, ...LOCAL_ERROR_KINDS };
export type ServerErrorCode = keyof typeof SERVER_ERROR_KINDS;
export const SERVER_ERROR_CODES = Object.keys(SERVER_ERROR_KINDS).filter(isServerErrorCode);

export function isServerErrorCode(code: string): code is ServerErrorCode {
  return Object.hasOwn(SERVER_ERROR_KINDS, code);
}

export interface ErrorExtras {
  /** Replaces the kind's standard detail when the case needs a more precise one. */
  detail?: string;
  errors?: ErrorDetailEntry[];
  headers?: Record<string, string>;
}

const typeUrls = new Map<string, string>();
const TYPE_URL_CACHE_LIMIT = 1000;

/** `{docs_url}/errors/<system>/<category>/<kind>`, memoised: the docs url is per Host, so few distinct pairs occur. */
export function errorType(docsUrl: string, code: ServerErrorCode): string {
  const cacheKey = `${docsUrl} ${code}`;
  let url = typeUrls.get(cacheKey);
  if (url === undefined) {
    if (typeUrls.size >= TYPE_URL_CACHE_LIMIT) typeUrls.clear();
    url = errorTypeUrl(docsUrl, code);
    typeUrls.set(cacheKey, url);
  }
  return url;
}

/** The error envelope, fields in the seed's order. */
export function errorEnvelopeJson(
  requestId: string,
  docsUrl: string,
  code: ServerErrorCode,
  extras: ErrorExtras = {},
): string {
  const kind = SERVER_ERROR_KINDS[code];
  const error: ErrorBody = {
    detail: extras.detail ?? kind.detail,
    status: kind.status,
    title: kind.title,
    type: errorType(docsUrl, code),
  };
  // Every 400 carries errors[] (possibly empty): the real schema requires it, and its client rejects a 400 without.
  if (extras.errors !== undefined) error.errors = extras.errors;
  else if (kind.status === 400) error.errors = [];
  return JSON.stringify({ meta: { requestId }, error });
}

/**
 * The real service sends its 429 as `application/problem+json`, and its official client recognises a 429 by that
 * type only (any other 429 becomes a generic APIError): this one answer follows it. The body is the same envelope.
 */
const PROBLEM_JSON_HEADERS = { ...JSON_HEADERS, "content-type": "application/problem+json" } as const;

function headersFor(code: ServerErrorCode): Record<string, string> {
  return code === "err:user:too_many_requests:rate_limited" ? PROBLEM_JSON_HEADERS : JSON_HEADERS;
}

/** The headers of an error envelope: JSON, never cached, and what the case adds (Retry-After, Allow, …). */
export function errorHeaders(code: ServerErrorCode, extra: Record<string, string> | undefined): Record<string, string> {
  const headers = headersFor(code);
  return extra === undefined ? headers : { ...headers, ...extra };
}
