import fc from "fast-check";
import { expect, test } from "vitest";
import { describeError } from "../../../src/features/troubleshoot/error-catalog";
import { listKeys, type KeysPage } from "../../../src/lib/api-client";
import { isKeyscopeError } from "../../../src/lib/api-errors";

const SECRET = "ks_root_PropertyTestSecret42";
const connection = { baseUrl: "https://api.example.com", apiKey: SECRET };

/** Statuses a Response can carry (Fetch: 200–599); these must have no body. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

const typeLike = fc.constantFrom(
  "https://docs.example.com/errors/svc/authentication/missing",
  "http://localhost:8787/docs/errors/unkey/application/invalid_input",
  "javascript:alert(1)//errors/svc/a/b",
  "data:text/html,<script>alert(1)</script>",
  " https://docs.example.com/errors/svc/a/b",
  "/docs/errors/svc/authentication/key_not_found",
  `https://docs.example.com/errors/svc/${SECRET}/x`,
  "",
);

/** Any JSON value, with a bias towards the strings that matter here. */
const field = fc.oneof(fc.jsonValue({ maxDepth: 2 }), typeLike, fc.constant(SECRET), fc.constant("security"));

const meta = fc.oneof(fc.record({ requestId: field }, { requiredKeys: [] }), field);

const errorBody = fc.record(
  {
    status: fc.oneof(fc.integer({ min: -1, max: 1000 }), field),
    title: field,
    detail: field,
    type: fc.oneof(typeLike, field),
    errors: fc.oneof(fc.array(fc.record({ location: field, message: field, fix: field }, { requiredKeys: [] }), { maxLength: 3 }), field),
  },
  { requiredKeys: [] },
);

const key = fc.record(
  {
    keyId: fc.oneof(fc.string(), field),
    name: fc.oneof(fc.string(), field),
    start: field,
    enabled: fc.oneof(fc.boolean(), field),
    createdAt: fc.oneof(fc.integer(), field),
    expires: field,
    meta: field,
  },
  { requiredKeys: [] },
);

const envelope = fc.oneof(
  fc.record({ meta, error: fc.oneof(errorBody, field) }, { requiredKeys: [] }),
  fc.record(
    {
      meta,
      data: fc.oneof(fc.array(key, { maxLength: 3 }), fc.record({ keys: fc.oneof(fc.array(key, { maxLength: 3 }), field) }), field),
      pagination: fc.oneof(fc.record({ cursor: field, hasMore: fc.oneof(fc.boolean(), field) }, { requiredKeys: [] }), field),
    },
    { requiredKeys: [] },
  ),
  errorBody,
  fc.jsonValue({ maxDepth: 3 }),
);

const body = fc.oneof(
  envelope.map((value) => JSON.stringify(value)),
  fc.tuple(envelope, fc.nat()).map(([value, cut]) => {
    const text = JSON.stringify(value);
    return text.slice(0, cut % (text.length + 1));
  }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ maxLength: 200 }).map((text) => `<html><body><h1>${text}</h1><p>${SECRET}</p></body></html>`),
  fc.constantFrom("", " ", "null", "[]", "{}", "0", '"x"', `Bearer ${SECRET}`),
);

const contentType = fc.option(
  fc.oneof(
    fc.constantFrom("application/json", "application/problem+json", "application/json; charset=utf-8", "text/html", "text/plain", "application/xml"),
    fc.stringMatching(/^[a-z]{1,8}\/[a-z+.-]{1,12}$/),
  ),
);

const retryAfter = fc.option(
  fc.oneof(fc.nat().map(String), fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()), fc.stringMatching(/^[ -~]{0,20}$/)),
);

const answer = fc.record({ status: fc.integer({ min: 200, max: 599 }), body, contentType, retryAfter });

function isKeysPage(value: KeysPage): boolean {
  return (
    Array.isArray(value.keys) &&
    value.keys.every((entry) => typeof entry.keyId === "string" && typeof entry.name === "string") &&
    typeof value.hasMore === "boolean"
  );
}

function allStrings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null || seen.has(value)) return [];
  seen.add(value);
  return Object.getOwnPropertyNames(value).flatMap((name) => allStrings(Object.getOwnPropertyDescriptor(value, name)?.value, seen));
}

test("whatever answers, listKeys resolves a KeysPage or throws a KeyscopeError without the key, and the catalog links only http(s)", async () => {
  const seen = new Map<string, number>();
  const count = (outcome: string) => seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
  await fc.assert(
    fc.asyncProperty(answer, async ({ status, body: text, contentType: type, retryAfter: retry }) => {
      const headers = new Headers();
      if (type !== null) headers.set("content-type", type);
      if (retry !== null) headers.set("retry-after", retry);
      const response = new Response(NULL_BODY_STATUSES.has(status) ? null : text, { status, headers });
      let outcome: unknown;
      try {
        const page = await listKeys(connection, {}, { fetch: () => Promise.resolve(response) });
        expect(isKeysPage(page)).toBe(true);
        count("KeysPage");
        return;
      } catch (error) {
        outcome = error;
      }
      expect(isKeyscopeError(outcome)).toBe(true);
      if (!isKeyscopeError(outcome)) return;
      count(outcome.name === "UnexpectedResponseError" ? `${outcome.name}:${outcome.reason}` : outcome.name);
      expect(allStrings(outcome).some((value) => value.includes(SECRET))).toBe(false);
      const { docsHref } = describeError(outcome, { baseUrl: connection.baseUrl });
      if (docsHref !== null) {
        expect(["http:", "https:"]).toContain(new URL(docsHref).protocol);
        count("docs link");
      }
    }),
    { numRuns: 10_000 },
  );
  // The generators reach every kind of outcome, not just the easy ones.
  for (const outcome of ["KeysPage", "ApiError", "docs link", "UnexpectedResponseError:empty", "UnexpectedResponseError:html", "UnexpectedResponseError:invalid-json", "UnexpectedResponseError:not-envelope"]) {
    expect(seen.get(outcome) ?? 0, outcome).toBeGreaterThan(10);
  }
}, 30_000);
