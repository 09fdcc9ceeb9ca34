/** One error for every catalog entry, with what its panel must say: the table the catalog tests walk. */
import {
  ApiError,
  InternalError,
  InvalidConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  type ApiErrorInit,
  type KeyscopeError,
} from "@/lib/api-errors";
import { CodeLoadError } from "@/lib/retryable-lazy";

export const DOCS = "https://docs.example.com";
export const BASE_URL = "https://api.example.com";
export const REQUEST_URL = `${BASE_URL}/v2/keys.listKeys`;

export function apiError(overrides: Partial<ApiErrorInit> & { path?: string } = {}): ApiError {
  const { path = "svc/authentication/key_not_found", ...init } = overrides;
  return new ApiError({
    status: 401,
    title: "Unauthorized",
    detail: "The provided root key does not exist or has been revoked",
    type: `${DOCS}/errors/${path}`,
    requestId: "req_4dJbNq7Uv2",
    errors: [],
    retryAfterSeconds: null,
    keySent: true,
    url: REQUEST_URL,
    ...init,
  });
}

export function unexpected(
  reason: UnexpectedResponseError["reason"],
  status: number,
  bodyExcerpt = "",
): UnexpectedResponseError {
  return new UnexpectedResponseError({
    status,
    contentType: "text/html",
    reason,
    bodyExcerpt,
    requestId: null,
    url: REQUEST_URL,
  });
}

export interface Sample {
  entryId: string;
  error: KeyscopeError;
  heading: RegExp;
  /** Words one of the fix steps contains. */
  fix: string;
}

export function samples(): Sample[] {
  return [
    {
      entryId: "authentication:missing",
      error: apiError({
        path: "svc/authentication/missing",
        detail: "Authentication credentials were not provided",
        keySent: false,
      }),
      heading: /without an API key/,
      fix: "the word Bearer, exactly one space, then the key",
    },
    {
      entryId: "authentication:missing:stripped",
      error: apiError({ path: "svc/authentication/missing", detail: "Authentication credentials were not provided" }),
      heading: /stripped the Authorization header/,
      fix: "pass the Authorization header on unchanged",
    },
    {
      entryId: "data:key_not_found",
      error: apiError({ status: 404, title: "Not Found", path: "unkey/data/key_not_found" }),
      heading: /key was not found, or this root key may not read it/,
      fix: "api.*.read_key",
    },
    {
      entryId: "data:ratelimit_namespace_not_found",
      error: apiError({ status: 404, title: "Not Found", path: "unkey/data/ratelimit_namespace_not_found" }),
      heading: /rate-limit namespace was not found/,
      fix: "ratelimit.*.create_namespace",
    },
    {
      entryId: "data:ratelimit_override_not_found",
      error: apiError({ status: 404, title: "Not Found", path: "unkey/data/ratelimit_override_not_found" }),
      heading: /override was not found/,
      fix: "Load the namespace's overrides again",
    },
    {
      entryId: "data:ratelimit_namespace_gone",
      error: apiError({ status: 410, title: "Resource Gone", path: "unkey/data/ratelimit_namespace_gone" }),
      heading: /namespace was deleted/,
      fix: "Use another namespace's name",
    },
    {
      entryId: "bad_request:invalid_analytics_query_type",
      error: apiError({ status: 400, title: "Bad Request", path: "user/bad_request/invalid_analytics_query_type" }),
      heading: /Only SELECT queries/,
      fix: "Write the query as a SELECT",
    },
    {
      entryId: "bad_request:invalid_analytics_query",
      error: apiError({ status: 400, title: "Bad Request", path: "user/bad_request/invalid_analytics_query" }),
      heading: /could not be parsed/,
      fix: "brackets, quotes and commas",
    },
    {
      entryId: "bad_request:invalid_analytics_table",
      error: apiError({ status: 400, title: "Bad Request", path: "user/bad_request/invalid_analytics_table" }),
      heading: /reads a table it may not/,
      fix: "one of the five verification tables",
    },
    {
      entryId: "bad_request:invalid_analytics_function",
      error: apiError({ status: 400, title: "Bad Request", path: "user/bad_request/invalid_analytics_function" }),
      heading: /function that is not allowed/,
      fix: "Use an allowed function",
    },
    {
      entryId: "unprocessable_entity:query_execution_timeout",
      error: apiError({
        status: 422,
        title: "Unprocessable Entity",
        path: "user/unprocessable_entity/query_execution_timeout",
      }),
      heading: /longer than 30 seconds/,
      fix: "Narrow the time range",
    },
    {
      entryId: "unprocessable_entity:query_memory_limit_exceeded",
      error: apiError({
        status: 422,
        title: "Unprocessable Entity",
        path: "user/unprocessable_entity/query_memory_limit_exceeded",
      }),
      heading: /more than 1 GB/,
      fix: "coarser time buckets",
    },
    {
      entryId: "application:service_unavailable",
      error: apiError({
        status: 503,
        title: "Service Unavailable",
        path: "svc/application/service_unavailable",
        detail: "Analytics is catching up: about 1,200,000 verifications recorded meanwhile are being copied",
        retryAfterSeconds: 20,
      }),
      heading: /cannot answer this for a moment/,
      fix: "Wait until the countdown ends",
    },
    {
      entryId: "unprocessable_entity:query_rows_limit_exceeded",
      error: apiError({
        status: 422,
        title: "Unprocessable Entity",
        path: "user/unprocessable_entity/query_rows_limit_exceeded",
      }),
      heading: /too many rows/,
      fix: "Add a LIMIT",
    },
    {
      entryId: "too_many_requests:query_quota_exceeded",
      error: apiError({
        status: 429,
        title: "Too Many Requests",
        path: "user/too_many_requests/query_quota_exceeded",
        retryAfterSeconds: 120,
      }),
      heading: /1,000 analytics queries/,
      fix: "Wait until the countdown ends",
    },
    {
      entryId: "bad_request:query_range_exceeds_retention",
      error: apiError({
        status: 400,
        title: "Bad Request",
        path: "user/bad_request/query_range_exceeds_retention",
      }),
      heading: /further back than the workspace keeps/,
      fix: "Choose a range inside the retention",
    },
    {
      entryId: "authentication:malformed",
      error: apiError({ status: 400, title: "Bad Request", path: "svc/authentication/malformed" }),
      heading: /not in the form the API expects/,
      fix: "Send exactly Authorization: Bearer <API_KEY>",
    },
    {
      entryId: "authentication:key_not_found",
      error: apiError(),
      heading: /does not know this root key/,
      fix: "Copy the root key again",
    },
    {
      entryId: "authorization:insufficient_permissions",
      error: apiError({
        status: 403,
        title: "Insufficient Permissions",
        path: "svc/authorization/insufficient_permissions",
      }),
      heading: /may not list keys/,
      fix: "api.*.read_key",
    },
    {
      entryId: "authorization:key_disabled",
      error: apiError({ status: 403, title: "Key is disabled", path: "svc/authorization/key_disabled" }),
      heading: /is disabled/,
      fix: "use another root key",
    },
    {
      entryId: "application:invalid_input",
      error: apiError({
        status: 400,
        title: "Bad Request",
        path: "svc/application/invalid_input",
        errors: [{ location: "body.limit", message: "must be at most 100", fix: "Send a limit from 1 to 100" }],
      }),
      heading: /rejected the request as invalid/,
      fix: "Fix each field the API names below",
    },
    {
      entryId: "data:api_not_found",
      error: apiError({ status: 404, title: "Not Found", path: "unkey/data/api_not_found" }),
      heading: /not found, or this root key may not read it/,
      fix: "Check the apiId",
    },
    ...(
      [
        ["permission", "permissions.listPermissions"],
        ["role", "permissions.listRoles"],
      ] as const
    ).map(([kind, operation]) => ({
      entryId: `data:${kind}_not_found`,
      error: apiError({ status: 404, title: "Not Found", path: `unkey/data/${kind}_not_found` }),
      heading: new RegExp(`has no such ${kind}`),
      fix: operation,
    })),
    ...(
      [
        ["identity", "externalId", "identities.getIdentity"],
        ["permission", "slug", "permissions.getPermission"],
        ["role", "name", "permissions.getRole"],
      ] as const
    ).map(([kind, field, operation]) => ({
      entryId: `data:${kind}_already_exists`,
      error: apiError({ status: 409, title: "Conflicting Resource", path: `unkey/data/${kind}_already_exists` }),
      heading: new RegExp(`already has an? ${kind} with this ${field}`),
      fix: operation,
    })),
    {
      entryId: "bad_request:request_body_too_large",
      error: apiError({
        status: 413,
        title: "Request Entity Too Large",
        path: "user/bad_request/request_body_too_large",
      }),
      heading: /request was too large/,
      fix: "client_max_body_size",
    },
    {
      entryId: "too_many_requests:rate_limited",
      error: apiError({
        status: 429,
        title: "Too Many Requests",
        path: "user/too_many_requests/rate_limited",
        retryAfterSeconds: 12,
      }),
      heading: /Too many requests/,
      fix: "Wait until the countdown ends",
    },
    {
      entryId: "application:unexpected_error",
      error: apiError({ status: 500, title: "Internal Server Error", path: "svc/application/unexpected_error" }),
      heading: /error of its own/,
      fix: "report it to whoever runs the API",
    },
    {
      entryId: "proxy:upstream_unreachable",
      error: apiError({ status: 502, title: "Bad Gateway", path: "keyscope/proxy/upstream_unreachable" }),
      heading: /proxy cannot reach the API behind it/,
      fix: "npm start -- --upstream",
    },
    {
      entryId: "status:400",
      error: apiError({ status: 400, title: "Bad Request", path: "svc/application/something_new" }),
      heading: /The API rejected the request$/,
      fix: "Read the API's detail below",
    },
    {
      entryId: "status:401",
      error: apiError({ status: 401, path: "svc/authentication/token_expired" }),
      heading: /did not accept the root key/,
      fix: "Paste the root key again",
    },
    {
      entryId: "status:403",
      error: apiError({ status: 403, title: "Forbidden", type: "" }),
      heading: /refused this root key access/,
      fix: "api.*.read_key",
    },
    {
      entryId: "status:404",
      error: apiError({ status: 404, title: "Not Found", type: "about:blank" }),
      heading: /Nothing was found at this address/,
      fix: "POST /v2/keys.listKeys",
    },
    {
      entryId: "status:409",
      error: apiError({ status: 409, title: "Conflict", path: "unkey/data/project_already_exists" }),
      heading: /conflicts with something that exists/,
      fix: "Use the existing one",
    },
    {
      entryId: "status:413",
      error: apiError({ status: 413, title: "Payload Too Large", type: "" }),
      heading: /refused as too large/,
      fix: "client_max_body_size",
    },
    {
      entryId: "status:429",
      error: apiError({ status: 429, title: "Too Many Requests", type: "", retryAfterSeconds: null }),
      heading: /Too many requests/,
      fix: "Wait until the countdown ends",
    },
    {
      entryId: "status:5xx",
      // A code the catalog does not know (application:service_unavailable has an entry of its own).
      error: apiError({ status: 503, title: "Service Unavailable", path: "svc/gateway/unavailable" }),
      heading: /failed on its side/,
      fix: "Retry in a few seconds",
    },
    {
      entryId: "status:other",
      error: apiError({ status: 418, title: "I'm a teapot", path: "svc/data/teapot" }),
      heading: /refused the request/,
      fix: "Read the API's detail below",
    },
    {
      entryId: "network",
      error: new NetworkError({ url: REQUEST_URL, offline: false, crossOrigin: false }),
      heading: /could not reach the API/,
      fix: "Check the base URL",
    },
    {
      entryId: "network:offline",
      error: new NetworkError({ url: REQUEST_URL, offline: true, crossOrigin: true }),
      heading: /You are offline/,
      fix: "Reconnect to the network",
    },
    {
      entryId: "network:cors",
      error: new NetworkError({ url: REQUEST_URL, offline: false, crossOrigin: true }),
      heading: /sends no CORS headers/,
      fix: "Start Keyscope's server in proxy mode",
    },
    {
      entryId: "network:redirect",
      error: new NetworkError({ url: REQUEST_URL, offline: false, crossOrigin: false, failure: "redirect" }),
      heading: /answers with a redirect/,
      fix: "See where it leads",
    },
    {
      entryId: "network:blocked-by-page",
      error: new NetworkError({
        url: "http://10.0.0.5:8787/v2/keys.listKeys",
        offline: false,
        crossOrigin: true,
        failure: "blocked-by-page",
      }),
      heading: /The browser sent nothing/,
      fix: "Use the API's https:// address",
    },
    {
      entryId: "proxy:upstream_redirect",
      error: apiError({
        status: 502,
        title: "Bad Gateway",
        path: "keyscope/proxy/upstream_redirect",
        errors: [{ location: "header.location", message: "https://sso.example.net/login" }],
      }),
      heading: /redirects to another site/,
      fix: "restart the proxy with that address",
    },
    {
      entryId: "timeout",
      error: new TimeoutError({ url: REQUEST_URL, timeoutMs: 15_000 }),
      heading: /took too long to answer/,
      fix: "Retry: a slow moment often passes",
    },
    {
      entryId: "unexpected:html",
      error: unexpected("html", 502, "502 Bad Gateway nginx"),
      heading: /A web page answered instead of the API/,
      fix: "points at the API itself",
    },
    {
      entryId: "unexpected:empty",
      error: unexpected("empty", 401),
      heading: /The answer was empty/,
      fix: "look for this request in its logs",
    },
    {
      entryId: "unexpected:invalid-json",
      error: unexpected("invalid-json", 200, '{"meta":{"requestId":"req_1"},"da'),
      heading: /cut off or is not valid JSON/,
      fix: "a cut connection rarely repeats",
    },
    {
      entryId: "unexpected:not-envelope",
      error: unexpected("not-envelope", 200, '{"hello":"world"}'),
      heading: /not in the API's format/,
      fix: "not another service",
    },
    {
      entryId: "unexpected:too-large",
      error: unexpected("too-large", 200),
      heading: /too large to be a list of keys/,
      fix: "honours the request's limit",
    },
    {
      entryId: "invalid-connection:base-url",
      error: new InvalidConnectionError("base-url-not-http"),
      heading: /base URL cannot be used/,
      fix: "starting with https://",
    },
    {
      entryId: "invalid-connection:api-key",
      error: new InvalidConnectionError("key-has-invalid-characters"),
      heading: /API key cannot be sent as it is/,
      fix: "Copy the key again",
    },
    {
      entryId: "invalid-connection:api-id",
      error: new InvalidConnectionError("api-id-required"),
      heading: /lists keys per API: enter an API ID/,
      fix: "API ID field",
    },
    {
      entryId: "code-load",
      error: new CodeLoadError(
        new TypeError("Failed to fetch dynamically imported module: https://keyscope.example.com/assets/page.js"),
      ),
      heading: /could not be loaded/,
      fix: "Retry once the server",
    },
    {
      entryId: "internal",
      error: new InternalError("TypeError: cannot read properties of undefined"),
      heading: /problem of its own/,
      fix: "Reload the page",
    },
  ];
}
