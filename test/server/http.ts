import * as v from "valibot";
import { errorTypeUrl, LIST_KEYS_PATH } from "../../src/lib/contract";

/** `req_` + base58, as every response's meta.requestId. */
export const REQUEST_ID = /^req_[1-9A-HJ-NP-Za-km-z]+$/;
export const KEY_ID = /^key_[1-9A-HJ-NP-Za-km-z]+$/;

const ErrorEnvelope = v.strictObject({
  meta: v.strictObject({ requestId: v.pipe(v.string(), v.regex(REQUEST_ID)) }),
  error: v.strictObject({
    detail: v.string(),
    status: v.number(),
    title: v.string(),
    type: v.string(),
    errors: v.optional(
      v.array(v.strictObject({ location: v.string(), message: v.string(), fix: v.optional(v.string()) })),
    ),
  }),
});
export type ErrorEnvelope = v.InferOutput<typeof ErrorEnvelope>;

const RateLimit = v.strictObject({
  id: v.string(),
  name: v.string(),
  limit: v.number(),
  duration: v.number(),
  autoApply: v.boolean(),
});

/** The whole Key object (docs/api.md#the-key-object) as the seed's keys.listKeys lists it (always with a `name`), and nothing else (never a secret). */
export const ListedKey = v.strictObject({
  keyId: v.pipe(v.string(), v.regex(KEY_ID)),
  name: v.string(),
  start: v.string(),
  enabled: v.boolean(),
  createdAt: v.number(),
  updatedAt: v.optional(v.number()),
  lastUsedAt: v.optional(v.number()),
  expires: v.optional(v.number()),
  meta: v.optional(v.record(v.string(), v.unknown())),
  permissions: v.optional(v.array(v.string())),
  roles: v.optional(v.array(v.string())),
  credits: v.optional(
    v.strictObject({
      remaining: v.nullable(v.number()),
      refill: v.optional(
        v.strictObject({
          interval: v.picklist(["daily", "monthly"]),
          amount: v.number(),
          refillDay: v.optional(v.number()),
        }),
      ),
    }),
  ),
  identity: v.optional(
    v.strictObject({
      id: v.string(),
      externalId: v.string(),
      meta: v.optional(v.record(v.string(), v.unknown())),
      ratelimits: v.optional(v.array(RateLimit)),
    }),
  ),
  ratelimits: v.optional(v.array(RateLimit)),
});

/** The Key object as getKey, whoami and apis.listKeys answer it: a key with no name has no `name`, as on the real service. */
export const AnsweredKey = v.strictObject({ ...ListedKey.entries, name: v.optional(v.string()) });

const ListKeysEnvelope = v.strictObject({
  meta: v.strictObject({ requestId: v.pipe(v.string(), v.regex(REQUEST_ID)) }),
  data: v.strictObject({ keys: v.array(ListedKey) }),
  pagination: v.strictObject({ cursor: v.optional(v.string()), hasMore: v.boolean() }),
});
export type ListKeysEnvelope = v.InferOutput<typeof ListKeysEnvelope>;

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: unknown;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Sent as the Authorization header verbatim (wins over `key`). */
  authorization?: string;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  method?: string;
  path?: string;
}

/** A server to call: a real one over HTTP, or the app in this process (test/server/in-process.ts). */
export interface ApiTarget {
  /** `http://127.0.0.1:PORT`, or the in-process app's made-up origin. */
  url: string;
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
}

function targetOf(target: string | ApiTarget): ApiTarget {
  return typeof target === "string" ? { url: target, fetch: (url, init) => fetch(url, init) } : target;
}

/** `target` is a real server's base URL, or the app in this process. */
export async function callApi(target: string | ApiTarget, options: CallOptions = {}): Promise<ApiAnswer> {
  const { url: baseUrl, fetch } = targetOf(target);
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  const response = await fetch(baseUrl + (options.path ?? LIST_KEYS_PATH), {
    method: options.method ?? "POST",
    headers,
    ...(body !== undefined && { body }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const WithRequestId = v.object({ meta: v.object({ requestId: v.pipe(v.string(), v.regex(REQUEST_ID)) }) });

/** The answer's meta.requestId; throws unless it is `req_` + base58. */
export function requestIdOf(answer: ApiAnswer): string {
  return v.parse(WithRequestId, answer.json).meta.requestId;
}

export function asError(answer: ApiAnswer): ErrorEnvelope {
  return v.parse(ErrorEnvelope, answer.json);
}

export function asKeyList(answer: ApiAnswer): ListKeysEnvelope {
  if (answer.status !== 200) throw new Error(`expected a key list, got ${answer.status}: ${answer.text}`);
  return v.parse(ListKeysEnvelope, answer.json);
}

/** The error type address for a code, as a server at `baseUrl` with default docs url writes it. */
export function typeFor(baseUrl: string, code: string): string {
  return errorTypeUrl(`${baseUrl}/docs`, code);
}

/**
 * Waits until the server's log holds the line of the request with `requestId`: the log arrives through a pipe,
 * so a check of what it does not contain is meaningful only once the last request's line is there.
 */
export async function waitForLogLine(output: () => string, requestId: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!output().includes(requestId)) {
    if (Date.now() > deadline) throw new Error(`the log has no line for ${requestId} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
