/**
 * The dashboard against answers recorded in the real service's shapes (docs/api.md#how-the-real-service-differs):
 * `apis.listKeys` with an `apiId`, `data` as a plain array, `application/problem+json` errors, and 400
 * invalid_input located in `security` for a missing header. The keys list and the error panel are composed as the
 * app composes them.
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ErrorBoundary } from "react-error-boundary";
import { MemoryRouter } from "react-router-dom";
import { expect, test, vi } from "vitest";
import { KeysList } from "@/features/keys/components/keys-list";
import { ErrorPanel } from "@/features/troubleshoot/components/error-panel";
import type { Connection } from "@/lib/api/transport";
import { takeConsoleErrors } from "../../../setup";
import { jsonResponse, realServiceEnvelope, stubApi } from "../../../support/keys-api";
import { freshQueryClientPerTest } from "../../../support/query-tests";

const BASE = "https://api.real.example";
const KEY = "unkey_3ZbQ7rEalKey9xT";
const DOCS = "https://docs.example.com/errors/unkey";

const queryClient = freshQueryClientPerTest();

function problem(
  status: number,
  title: string,
  kind: string,
  errors?: { location: string; message: string }[],
): Response {
  return new Response(
    JSON.stringify({
      meta: { requestId: "req_R3alShape1" },
      error: { title, detail: title, status, type: `${DOCS}/${kind}`, ...(errors ? { errors } : {}) },
    }),
    { status, headers: { "content-type": "application/problem+json" } },
  );
}

function renderList(connection: Connection) {
  render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient()}>
        <ErrorBoundary
          fallbackRender={({ error }) => (
            <ErrorPanel error={error} baseUrl={connection.baseUrl} troubleshootHref="/troubleshoot" />
          )}
        >
          <KeysList connection={connection} renderRefreshError={() => null} />
        </ErrorBoundary>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const keys = [
  { keyId: "key_2Nw8pReal1", name: "Billing worker", start: "bil_", enabled: true },
  { keyId: "key_2Nw8pReal2", name: "Checkout service", start: "chk_", enabled: false },
];

test("with an API ID, keys come from apis.listKeys, `data` a plain array beside `pagination`", async () => {
  const api = stubApi(realServiceEnvelope(keys, { hasMore: false }));
  renderList({ baseUrl: BASE, apiKey: KEY, apiId: "api_4Fh8s" });
  expect(await screen.findByText("Billing worker")).toBeVisible();
  expect(screen.getByText("Checkout service")).toBeVisible();
  expect(api.requests[0]).toMatchObject({ url: `${BASE}/v2/apis.listKeys`, body: { apiId: "api_4Fh8s" } });
});

// The error boundary logs what it caught: each test below takes those console errors as expected.
test("a server without keys.listKeys (a plain 404) and no API ID gets a panel that asks for one", async () => {
  stubApi(new Response("404 Not Found", { status: 404, headers: { "content-type": "text/plain" } }));
  renderList({ baseUrl: BASE, apiKey: KEY });
  expect(
    await screen.findByRole("heading", { name: "This API lists keys per API: enter an API ID" }),
  ).toBeInTheDocument();
  expect(screen.getByRole("link", { name: "Troubleshooting guide" })).toHaveAttribute("href", "/troubleshoot");
  takeConsoleErrors();
});

test("the service's own 404 envelope (api_not_found) is shown as it is, not as a missing operation", async () => {
  stubApi(problem(404, "Not Found", "data/api_not_found"));
  renderList({ baseUrl: BASE, apiKey: KEY, apiId: "api_unknown" });
  expect(
    await screen.findByRole("heading", { name: "The API was not found, or this root key may not read it" }),
  ).toBeInTheDocument();
  expect(screen.getAllByText("err:unkey:data:api_not_found").length).toBeGreaterThan(0);
  takeConsoleErrors();
});

test("400 invalid_input located in `security`, as problem+json, is the missing-credentials panel", async () => {
  stubApi(
    problem(400, "Bad Request", "application/invalid_input", [
      { location: "security", message: "authorization header is required" },
    ]),
  );
  renderList({ baseUrl: BASE, apiKey: KEY, apiId: "api_4Fh8s" });
  // The key was sent, so it was stripped on the way.
  expect(await screen.findByRole("heading", { name: /stripped the Authorization header/ })).toBeInTheDocument();
  expect(screen.getAllByText("err:unkey:application:invalid_input").length).toBeGreaterThan(0);
  expect(screen.getByText("req_R3alShape1")).toBeInTheDocument();
  expect(screen.getByRole("link", { name: /Read the docs/ })).toHaveAttribute(
    "href",
    `${DOCS}/application/invalid_input`,
  );
  takeConsoleErrors();
});

test("key_not_found from the real service picks the same guide as the reference server's", async () => {
  stubApi(problem(401, "Unauthorized", "authentication/key_not_found"));
  renderList({ baseUrl: BASE, apiKey: KEY, apiId: "api_4Fh8s" });
  expect(await screen.findByRole("heading", { name: "The API does not know this root key" })).toBeInTheDocument();
  takeConsoleErrors();
});

test("problem+json at the top level (RFC 9457, no envelope) is read too", async () => {
  stubApi(
    jsonResponse(
      429,
      {
        type: `${DOCS}/../user/too_many_requests/rate_limited`,
        title: "Too Many Requests",
        status: 429,
        detail: "slow down",
      },
      { "content-type": "application/problem+json", "retry-after": "30" },
    ),
  );
  renderList({ baseUrl: BASE, apiKey: KEY, apiId: "api_4Fh8s" });
  expect(await screen.findByRole("heading", { name: "Too many requests: wait a moment" })).toBeInTheDocument();
  takeConsoleErrors();
});

test("the API-ID panel asks for the API ID itself and hands it on", async () => {
  const user = userEvent.setup();
  const onApiId = vi.fn();
  stubApi(new Response("404 Not Found", { status: 404, headers: { "content-type": "text/plain" } }));
  render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient()}>
        <ErrorBoundary fallbackRender={({ error }) => <ErrorPanel error={error} baseUrl={BASE} onApiId={onApiId} />}>
          <KeysList connection={{ baseUrl: BASE, apiKey: KEY }} renderRefreshError={() => null} />
        </ErrorBoundary>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  const form = await screen.findByRole("form", { name: "Use an API ID" });
  await user.click(screen.getByRole("button", { name: "List its keys" }));
  expect(form).toHaveTextContent("Enter the API's id");
  expect(onApiId).not.toHaveBeenCalled();
  await user.type(screen.getByLabelText("API ID"), " api_4Fh8s ");
  await user.click(screen.getByRole("button", { name: "List its keys" }));
  expect(onApiId).toHaveBeenCalledWith("api_4Fh8s");
  takeConsoleErrors();
});
