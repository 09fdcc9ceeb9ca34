import fc from "fast-check";
import { expect, test } from "vitest";
import { describeError, type Diagnosis } from "@/features/troubleshoot/error-catalog";
import { listKeys, type KeysPage } from "@/lib/api/list-keys";
import { MAX_RESPONSE_BYTES } from "@/lib/api/transport";
import {
  ApiError,
  InternalError,
  InvalidConnectionError,
  isKeyscopeError,
  NetworkError,
  TimeoutError,
  toKeyscopeError,
  UnexpectedResponseError,
  type InvalidConnectionProblem,
  type KeyscopeError,
  type UnexpectedResponseReason,
} from "@/lib/api-errors";

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
    errors: fc.oneof(
      fc.array(fc.record({ location: field, message: field, fix: field }, { requiredKeys: [] }), { maxLength: 3 }),
      field,
    ),
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
      data: fc.oneof(
        fc.array(key, { maxLength: 3 }),
        fc.record({ keys: fc.oneof(fc.array(key, { maxLength: 3 }), field) }),
        field,
      ),
      pagination: fc.oneof(
        fc.record({ cursor: field, hasMore: fc.oneof(fc.boolean(), field) }, { requiredKeys: [] }),
        field,
      ),
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
    fc.constantFrom(
      "application/json",
      "application/problem+json",
      "application/json; charset=utf-8",
      "text/html",
      "text/plain",
      "application/xml",
    ),
    fc.stringMatching(/^[a-z]{1,8}\/[a-z+.-]{1,12}$/),
  ),
);

const retryAfter = fc.option(
  fc.oneof(
    fc.nat().map(String),
    fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()),
    fc.stringMatching(/^[ -~]{0,20}$/),
  ),
);

const answer = fc.record({ status: fc.integer({ min: 200, max: 599 }), body, contentType, retryAfter });

function isKeysPage(value: KeysPage): boolean {
  return (
    Array.isArray(value.keys) &&
    // docs/api.md#the-key-object: `name` is optional in the Key object; when present it is text.
    value.keys.every(
      (entry) => typeof entry.keyId === "string" && (entry.name === undefined || typeof entry.name === "string"),
    ) &&
    typeof value.hasMore === "boolean"
  );
}

function allStrings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null || seen.has(value)) return [];
  seen.add(value);
  return Object.getOwnPropertyNames(value).flatMap((name) =>
    allStrings(Object.getOwnPropertyDescriptor(value, name)?.value, seen),
  );
}

// The time limits here guard against a hang, not speed: thousands of runs take about 10 s alone and four times that on
// a machine whose two cores are shared (speed lives in the bench).
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
  for (const outcome of [
    "KeysPage",
    "ApiError",
    "docs link",
    "UnexpectedResponseError:empty",
    "UnexpectedResponseError:html",
    "UnexpectedResponseError:invalid-json",
    "UnexpectedResponseError:not-envelope",
  ]) {
    expect(seen.get(outcome) ?? 0, outcome).toBeGreaterThan(10);
  }
}, 180_000);

// ---------------------------------------------------------------------------------------------------------------
// Beyond well-behaved bodies: what the transport itself can do, and the catalog over every error it can meet.

/** A response body that gives `text` and then fails, as a connection cut mid-body does. */
function failingBody(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(bytes);
      } else controller.error(new TypeError("network error"));
    },
  });
}

// Made once: thousands of runs send these same bytes.
const HALF_THE_LIMIT = new Uint8Array(MAX_RESPONSE_BYTES / 2).fill(0x20);

/** `MAX_RESPONSE_BYTES` and then some, in chunks of half the limit, never declared in a header. */
function endlessBody(): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent > MAX_RESPONSE_BYTES) controller.close();
      else {
        sent += HALF_THE_LIMIT.byteLength;
        controller.enqueue(HALF_THE_LIMIT);
      }
    },
  });
}

type Transport =
  | { kind: "rejects"; thrown: unknown }
  | { kind: "hangs" }
  | { kind: "body-fails"; status: number; text: string }
  | { kind: "declared-too-large"; status: number }
  | { kind: "streamed-too-large"; status: number }
  | { kind: "answers"; status: number; text: string; contentType: string | null; requestIdHeader: string | null };

const thrown = fc.oneof(
  fc.constant(new TypeError("Failed to fetch")),
  fc.constant(new DOMException("The operation was aborted", "AbortError")),
  fc.string().map((message) => new Error(`${message} ${SECRET}`)),
  fc.anything(),
);

const transport: fc.Arbitrary<Transport> = fc.oneof(
  { weight: 2, arbitrary: thrown.map((value): Transport => ({ kind: "rejects", thrown: value })) },
  { weight: 1, arbitrary: fc.constant<Transport>({ kind: "hangs" }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("body-fails" as const),
      status: fc.integer({ min: 200, max: 599 }),
      text: body,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("declared-too-large" as const),
      status: fc.integer({ min: 200, max: 599 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("streamed-too-large" as const),
      status: fc.integer({ min: 200, max: 599 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("answers" as const),
      status: fc.integer({ min: 200, max: 599 }),
      text: body,
      contentType: fc.option(
        fc.constantFrom("application/problem+json", `application/json; key=${SECRET}`, "text/html"),
      ),
      requestIdHeader: fc.option(fc.constantFrom(SECRET, "req_header1", `req_${SECRET}`)),
    }),
  },
);

function fetchFor(plan: Transport): typeof fetch {
  return (_input, init) => {
    switch (plan.kind) {
      case "rejects":
        // A fetch (or a wrapper of it) may reject with anything at all, which is the point here.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        return Promise.reject(plan.thrown);
      case "hangs":
        // Never settles on its own; the client's timeout (or its abort of the signal) ends it.
        return new Promise<Response>(() => init?.signal?.throwIfAborted());
      case "body-fails":
        return Promise.resolve(
          new Response(NULL_BODY_STATUSES.has(plan.status) ? null : failingBody(plan.text), { status: plan.status }),
        );
      case "declared-too-large":
        return Promise.resolve(
          new Response(NULL_BODY_STATUSES.has(plan.status) ? null : "{}", {
            status: plan.status,
            headers: { "content-length": String(MAX_RESPONSE_BYTES * 5) },
          }),
        );
      case "streamed-too-large":
        return Promise.resolve(
          new Response(NULL_BODY_STATUSES.has(plan.status) ? null : endlessBody(), { status: plan.status }),
        );
      case "answers": {
        const headers = new Headers();
        if (plan.contentType !== null) headers.set("content-type", plan.contentType);
        if (plan.requestIdHeader !== null) headers.set("x-request-id", plan.requestIdHeader);
        return Promise.resolve(
          new Response(NULL_BODY_STATUSES.has(plan.status) ? null : plan.text, { status: plan.status, headers }),
        );
      }
    }
  };
}

/** Every link a diagnosis offers is an absolute http(s) address, and nothing in it carries the key. */
function expectSafeDiagnosis(diagnosis: Diagnosis, secret: string | null) {
  if (diagnosis.docsHref !== null) {
    expect(["http:", "https:"]).toContain(new URL(diagnosis.docsHref).protocol);
    expect(diagnosis.docsHref).toMatch(/^https?:\/\//i);
  }
  if (secret !== null) expect(allStrings(diagnosis).some((value) => value.includes(secret))).toBe(false);
}

test("whatever the transport does (rejects, hangs, breaks mid-body, sends too much), listKeys ends in a KeysPage or a key-free KeyscopeError", async () => {
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(transport, async (plan) => {
      let outcome: unknown;
      try {
        const page = await listKeys(
          connection,
          {},
          { fetch: fetchFor(plan), timeoutMs: plan.kind === "hangs" ? 1 : 5_000 },
        );
        expect(isKeysPage(page)).toBe(true);
        seen.set("KeysPage", (seen.get("KeysPage") ?? 0) + 1);
        return;
      } catch (error) {
        outcome = error;
      }
      expect(isKeyscopeError(outcome), `${plan.kind}: ${String(outcome)}`).toBe(true);
      if (!isKeyscopeError(outcome)) return;
      const name = outcome instanceof UnexpectedResponseError ? `${outcome.name}:${outcome.reason}` : outcome.name;
      seen.set(`${plan.kind} -> ${name}`, (seen.get(`${plan.kind} -> ${name}`) ?? 0) + 1);
      if (plan.kind === "rejects") expect(outcome).toBeInstanceOf(NetworkError);
      if (plan.kind === "hangs") expect(outcome).toBeInstanceOf(TimeoutError);
      if (plan.kind === "body-fails" && !NULL_BODY_STATUSES.has(plan.status)) {
        // The headers had arrived: whatever broke, it was not CORS.
        expect(outcome).toBeInstanceOf(NetworkError);
        expect(outcome).toMatchObject({ crossOrigin: false });
      }
      // (A 404 that is not the envelope means "no such operation", which asks for an API ID instead.)
      if (
        (plan.kind === "declared-too-large" || plan.kind === "streamed-too-large") &&
        !NULL_BODY_STATUSES.has(plan.status) &&
        plan.status !== 404
      ) {
        expect(outcome).toMatchObject({ name: "UnexpectedResponseError", reason: "too-large" });
      }
      expect(allStrings(outcome).some((value) => value.includes(SECRET))).toBe(false);
      expectSafeDiagnosis(
        describeError(outcome, { baseUrl: connection.baseUrl, pageOrigin: "http://127.0.0.1:8787" }),
        SECRET,
      );
    }),
    // Fewer runs than the answers above: each of these spins a stream or a timer, and 3,000 reach every branch.
    { numRuns: 3_000 },
  );
  for (const outcome of [
    "rejects -> NetworkError",
    "hangs -> TimeoutError",
    "body-fails -> NetworkError",
    "declared-too-large -> UnexpectedResponseError:too-large",
    "streamed-too-large -> UnexpectedResponseError:too-large",
    "answers -> ApiError",
  ]) {
    expect(seen.get(outcome) ?? 0, outcome).toBeGreaterThan(10);
  }
}, 180_000);

test("an RFC 9457 problem document on any error status is an ApiError with that status, its fields and a safe docs link", async () => {
  const problem = fc.record(
    {
      type: fc.oneof(typeLike, fc.string()),
      title: fc.string(),
      detail: fc.string(),
      status: fc.oneof(fc.integer({ min: 100, max: 599 }), field),
      instance: field,
      errors: fc.array(
        fc.record(
          { location: fc.string(), message: fc.string(), fix: fc.option(fc.string(), { nil: undefined }) },
          { requiredKeys: ["location", "message"] },
        ),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: ["title"] },
  );
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 400, max: 599 }), problem, async (status, document) => {
      const response = new Response(JSON.stringify(document), {
        status,
        headers: { "content-type": "application/problem+json" },
      });
      const error = await listKeys(connection, {}, { fetch: () => Promise.resolve(response) }).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ApiError);
      if (!(error instanceof ApiError)) return;
      expect(error.status).toBe(status);
      expect(error.title).toBe(document.title);
      expect(error.errors).toHaveLength(document.errors?.length ?? 0);
      expectSafeDiagnosis(describeError(error, { baseUrl: connection.baseUrl }), null);
    }),
    { numRuns: 2_000 },
  );
}, 180_000);

const PROBLEMS: InvalidConnectionProblem[] = [
  "base-url-not-http",
  "base-url-unparsable",
  "base-url-has-credentials",
  "base-url-has-query",
  "key-has-invalid-characters",
  "api-id-required",
];
const REASONS: UnexpectedResponseReason[] = ["empty", "invalid-json", "not-envelope", "html", "too-large"];
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  typeLike,
  fc.constant(""),
  fc.constant("\u202e<img src=x onerror=alert(1)>"),
);

const anyKeyscopeError: fc.Arbitrary<KeyscopeError> = fc.oneof(
  fc
    .record({
      status: fc.integer({ min: 100, max: 599 }),
      title: anyText,
      detail: anyText,
      type: anyText,
      requestId: fc.option(anyText),
      errors: fc.array(fc.record({ location: anyText, message: anyText }), { maxLength: 3 }),
      retryAfterSeconds: fc.option(fc.oneof(fc.nat(), fc.integer(), fc.double())),
      keySent: fc.boolean(),
      url: anyText,
      redirectedTo: fc.option(anyText),
      receivedAt: fc.oneof(fc.integer(), fc.double()),
    })
    .map((init) => new ApiError(init)),
  fc.record({ url: anyText, offline: fc.boolean(), crossOrigin: fc.boolean() }).map((init) => new NetworkError(init)),
  fc.record({ url: anyText, timeoutMs: fc.integer() }).map((init) => new TimeoutError(init)),
  fc
    .record({
      status: fc.integer({ min: 0, max: 999 }),
      contentType: fc.option(anyText),
      reason: fc.constantFrom(...REASONS),
      bodyExcerpt: anyText,
      requestId: fc.option(anyText),
      url: anyText,
    })
    .map((init) => new UnexpectedResponseError(init)),
  fc.constantFrom(...PROBLEMS).map((problem) => new InvalidConnectionError(problem)),
  anyText.map((summary) => new InternalError(summary)),
);

/** Thrown values a bug could produce, including ones that throw when looked at. */
const anyThrown = fc.oneof(
  fc.anything(),
  fc.constant(Symbol("thrown")),
  fc.constant(
    new Proxy(
      {},
      {
        get() {
          throw new Error("looked at");
        },
        getPrototypeOf() {
          throw new Error("looked at");
        },
      },
    ),
  ),
  fc.constant({
    get message(): string {
      throw new Error("looked at");
    },
    toString(): string {
      throw new Error("looked at");
    },
  }),
  fc.string().map((message) => new RangeError(message)),
);

test("the catalog describes every error Keyscope can meet without throwing, and links only http(s)", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        anyKeyscopeError,
        anyThrown.map((value) => toKeyscopeError(value, [SECRET])),
      ),
      fc.option(anyText, { nil: undefined }),
      fc.option(fc.oneof(anyText, fc.constant("http://127.0.0.1:8787")), { nil: undefined }),
      (error, baseUrl, pageOrigin) => {
        expect(isKeyscopeError(error)).toBe(true);
        const diagnosis = describeError(error, { baseUrl, pageOrigin });
        expect(typeof diagnosis.heading).toBe("string");
        expect(diagnosis.heading).not.toBe("");
        expectSafeDiagnosis(diagnosis, null);
        if (error instanceof ApiError && diagnosis.docsHref === null)
          expect(diagnosis.docsText).toBe(error.type === "" ? null : error.type);
      },
    ),
    { numRuns: 10_000 },
  );
}, 180_000);
