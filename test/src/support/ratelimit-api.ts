import { vi } from "vitest";
import type { RatelimitOverride } from "@/lib/api/ratelimit-override";
import { errorEnvelope, jsonResponse } from "./keys-api";

/**
 * A stubbed rate-limit API for component tests: namespaces with their overrides, answered as the services answer
 * listOverrides (paged by id), setOverride (the identifier's own kept) and deleteOverride, each refusable with a 403
 * naming the namespace's id as the real service's words do; analytics.getRatelimits answered by `analytics`. Every
 * call is recorded.
 */
export interface FakeNamespace {
  name: string;
  id: string;
  overrides: RatelimitOverride[];
}

export type RatelimitOperation = "listOverrides" | "setOverride" | "deleteOverride" | "getRatelimits";

export interface RatelimitCall {
  operation: string;
  body: Record<string, unknown>;
}

const DOCS = "https://unkey.com/docs/errors/unkey";

const ACTION: Record<RatelimitOperation, string> = {
  listOverrides: "read_override",
  setOverride: "set_override",
  deleteOverride: "delete_override",
  getRatelimits: "read_analytics",
};

function refusal(action: string, namespaceId: string): Response {
  return errorEnvelope(
    403,
    "Insufficient Permissions",
    `Missing one of these permissions: 'ratelimit.${namespaceId}.${action}' or 'ratelimit.*.${action}'`,
    `${DOCS}/authorization/insufficient_permissions`,
  );
}

const namespaceNotFound = () =>
  errorEnvelope(404, "Not Found", "This namespace does not exist.", `${DOCS}/data/ratelimit_namespace_not_found`);

export function stubRatelimitApi(
  namespaces: FakeNamespace[],
  options: {
    refuse?: readonly RatelimitOperation[];
    analytics?: (query: string) => unknown[] | Response;
    pageSize?: number;
  } = {},
) {
  const calls: RatelimitCall[] = [];
  let nextId = 1;
  const find = (nameOrId: unknown) =>
    namespaces.find((namespace) => namespace.name === nameOrId || namespace.id === nameOrId);
  const refused = (operation: RatelimitOperation) => options.refuse?.includes(operation) === true;
  const ok = (data: unknown, pagination?: unknown) =>
    jsonResponse(200, { meta: { requestId: "req_Rl1" }, data, ...(pagination !== undefined && { pagination }) });

  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      const operation = url.slice(url.lastIndexOf("/") + 1).replace(/^ratelimit\.|^analytics\./, "");
      const body = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>;
      calls.push({ operation, body });
      if (operation === "getRatelimits") {
        if (refused("getRatelimits")) return Promise.resolve(refusal("read_analytics", "*"));
        const answer = options.analytics?.(String(body.query)) ?? [];
        return Promise.resolve(answer instanceof Response ? answer : ok(answer));
      }
      const namespace = find(body.namespace);
      if (namespace === undefined) return Promise.resolve(namespaceNotFound());
      if (operation === "listOverrides" || operation === "setOverride" || operation === "deleteOverride") {
        if (refused(operation)) return Promise.resolve(refusal(ACTION[operation], namespace.id));
      }
      if (operation === "listOverrides") {
        const size = Math.min(Number(body.limit ?? 50), options.pageSize ?? 100);
        const sorted = [...namespace.overrides].sort((a, b) => a.overrideId.localeCompare(b.overrideId));
        const from = typeof body.cursor === "string" ? sorted.findIndex((o) => o.overrideId === body.cursor) : 0;
        const page = sorted.slice(from, from + size);
        const next = sorted[from + size];
        return Promise.resolve(
          ok(page, next === undefined ? { hasMore: false } : { cursor: next.overrideId, hasMore: true }),
        );
      }
      if (operation === "setOverride") {
        const existing = namespace.overrides.find((override) => override.identifier === body.identifier);
        const override = {
          overrideId: existing?.overrideId ?? `rlor_New${nextId++}`,
          identifier: String(body.identifier),
          limit: Number(body.limit),
          duration: Number(body.duration),
        };
        namespace.overrides = [...namespace.overrides.filter((other) => other !== existing), override];
        return Promise.resolve(ok({ overrideId: override.overrideId }));
      }
      if (operation === "deleteOverride") {
        const existing = namespace.overrides.find((override) => override.identifier === body.identifier);
        if (existing === undefined)
          return Promise.resolve(
            errorEnvelope(
              404,
              "Not Found",
              "This override does not exist.",
              `${DOCS}/data/ratelimit_override_not_found`,
            ),
          );
        namespace.overrides = namespace.overrides.filter((override) => override !== existing);
        return Promise.resolve(ok({}));
      }
      return Promise.resolve(new Response("not found", { status: 404 }));
    }),
  );
  return {
    calls,
    /** The calls of one operation, in order. */
    of: (operation: string) => calls.filter((call) => call.operation === operation),
  };
}
