import { vi } from "vitest";
import type { Key } from "@/lib/contract";

/** A stubbed `fetch` answering like the API; records every listKeys request body. */
export interface FakeApi {
  fetch: ReturnType<typeof vi.fn>;
  requests: { url: string; authorization: string | null; body: Record<string, unknown> }[];
  analytics: { body: Record<string, unknown> }[];
}

export type Answer = Response | ((body: Record<string, unknown>) => Response | Promise<Response>);

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** The reference server's success envelope: `data.keys`, and pagination beside data. */
export function keysEnvelope(keys: Key[], pagination?: { cursor?: string; hasMore: boolean }): Response {
  return jsonResponse(200, {
    meta: { requestId: "req_3FxT9k" },
    data: { keys },
    ...(pagination ? { pagination } : {}),
  });
}

/** The real service's shape: `data` is the array itself. */
export function realServiceEnvelope(keys: Key[], pagination?: { cursor?: string; hasMore: boolean }): Response {
  return jsonResponse(200, { meta: { requestId: "req_3FxT9k" }, data: keys, ...(pagination ? { pagination } : {}) });
}

export function errorEnvelope(status: number, title: string, detail: string, type: string): Response {
  return jsonResponse(status, { meta: { requestId: "req_8Hq2Lm" }, error: { status, title, detail, type } });
}

export const keyNotFound = () =>
  errorEnvelope(
    401,
    "Unauthorized",
    "The provided root key does not exist or has been revoked",
    "http://localhost:3000/docs/errors/svc/authentication/key_not_found",
  );

/** The analytics operation the keys table asks for usage; answered with no rows unless a test says otherwise. */
export const ANALYTICS_PATH = "/v2/analytics.getVerifications";

/**
 * Stub the global fetch with answers given in order; the last one repeats. The usage bars' analytics queries
 * are answered apart (no rows) and recorded in `analytics`, so the answers and `requests` stay the list's.
 */
let analyticsRows: (query: string) => unknown[] | Promise<unknown[]> = () => [];

/** The rows the stubbed analytics operation answers a query with, maybe later (reset to none by every `stubApi`). */
export function answerAnalytics(rows: (query: string) => unknown[] | Promise<unknown[]>): void {
  analyticsRows = rows;
}

export function stubApi(...answers: Answer[]): FakeApi {
  analyticsRows = () => [];
  const requests: FakeApi["requests"] = [];
  const analytics: FakeApi["analytics"] = [];
  let calls = 0;
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const headers = new Headers(init?.headers);
    const url = input instanceof Request ? input.url : input.toString();
    if (url.endsWith(ANALYTICS_PATH)) {
      analytics.push({ body });
      return jsonResponse(200, { meta: { requestId: "req_9Usage" }, data: await analyticsRows(String(body.query)) });
    }
    requests.push({
      url: input instanceof Request ? input.url : input.toString(),
      authorization: headers.get("authorization"),
      body,
    });
    const answer = answers[Math.min(calls, answers.length - 1)];
    calls += 1;
    if (answer === undefined) throw new Error("no answer stubbed");
    return typeof answer === "function" ? answer(body) : answer.clone();
  });
  vi.stubGlobal("fetch", fetch);
  return { fetch, requests, analytics };
}

export function makeKeys(count: number, from = 0): Key[] {
  return Array.from({ length: count }, (_, index) => {
    const n = from + index;
    return { keyId: `key_${String(n).padStart(6, "0")}`, name: `Service ${n}` };
  });
}
