import { vi } from "vitest";
import { jsonResponse } from "./keys-api";

/** A request the stubbed API received: its operation (`identities.getIdentity`) and body. */
export interface Received {
  operation: string;
  body: Record<string, unknown>;
}

export type Handler = (body: Record<string, unknown>) => Response | Promise<Response>;

/** The success envelope, with pagination when given. */
export function ok(data: unknown, pagination?: { cursor?: string; hasMore: boolean }): Response {
  return jsonResponse(200, { meta: { requestId: "req_Ok1" }, data, ...(pagination && { pagination }) });
}

/** An error envelope of the reference server's kind `category/kind`. */
export function refusal(status: number, kind: string, detail: string, title = "Refused"): Response {
  return jsonResponse(status, {
    meta: { requestId: "req_No1" },
    error: { status, title, detail, type: `http://127.0.0.1:8799/docs/errors/svc/${kind}`, errors: [] },
  });
}

/**
 * Stubs `fetch` with a handler per operation (`"identities.listIdentities"`); an operation without one answers as a
 * router does for a path it serves nothing at (a plain-text 404). Every request is recorded, in order.
 */
export function stubOperations(handlers: Record<string, Handler>): Received[] {
  const received: Received[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      const operation = new URL(url).pathname.replace(/^\/v2\//, "");
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
      received.push({ operation, body });
      const handler = handlers[operation];
      return handler === undefined ? new Response("404 Not Found", { status: 404 }) : handler(body);
    }),
  );
  return received;
}
