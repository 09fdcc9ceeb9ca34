import type { Pagination } from "../../src/lib/contract";

/** The success envelope, `{meta: {requestId}, data}`, as every operation answers it. */

/** Any `/v2` handler's context: its request id is set before any handler runs (app.ts). */
interface WithRequestId {
  get(key: "requestId"): string;
}

export const JSON_HEADERS = {
  "content-type": "application/json",
  "cache-control": "no-store",
} as const;

/**
 * A 200 answer of JSON text. A Response of its own rather than `c.body(json, 200, JSON_HEADERS)`: Hono turns two or
 * more headers into a Headers object, which @hono/node-server then turns back into the plain object it writes.
 */
export function okJson(json: string): Response {
  return new Response(json, { status: 200, headers: JSON_HEADERS });
}

/** `data` already written as JSON text (a key, a page of keys, analytics rows): spliced in, not parsed again. */
export function dataJsonAnswer(c: WithRequestId, dataJson: string): Response {
  return okJson(`{"meta":{"requestId":"${c.get("requestId")}"},"data":${dataJson}}`);
}

export function dataAnswer(c: WithRequestId, data: unknown): Response {
  return okJson(JSON.stringify({ meta: { requestId: c.get("requestId") }, data }));
}

/** A page of a list: `pagination` beside `data`, its cursor left out on the last page. */
export function pageAnswer(c: WithRequestId, data: unknown, pagination: Pagination): Response {
  return okJson(JSON.stringify({ meta: { requestId: c.get("requestId") }, data, pagination }));
}

/** An answer of `meta` alone, as the real service's identities.deleteIdentity writes it (no `data`). */
export function metaAnswer(c: WithRequestId): Response {
  return okJson(`{"meta":{"requestId":"${c.get("requestId")}"}}`);
}
