import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { RequestIdLookup } from "@/features/troubleshoot/components/request-id-lookup";
import { getKey } from "@/lib/api/get-key";
import type { Connection } from "@/lib/api/transport";
import { clearJournal } from "@/lib/request-journal";
import { errorEnvelope, jsonResponse } from "../../support/keys-api";
import { freshQueryClientPerTest } from "../../support/query-tests";

const CONNECTION: Connection = { baseUrl: "http://127.0.0.1:8799", apiKey: "ks_root_S3cr3tValue42" };
const queryClient = freshQueryClientPerTest();

beforeEach(() => clearJournal());

function renderLookup(connection: Connection | null, initialRequestId: string | null = null, now = Date.now()) {
  const router = createMemoryRouter(
    [
      {
        path: "/",
        element: (
          <RequestIdLookup
            connection={connection}
            initialRequestId={initialRequestId}
            keyHref={(keyId) => `/keys/${keyId}`}
            now={now}
          />
        ),
      },
    ],
    { initialEntries: ["/"] },
  );
  render(
    <QueryClientProvider client={queryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

function stubFetch(answer: (url: string, body: Record<string, unknown>) => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      calls.push(url);
      return Promise.resolve(
        answer(url, JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>),
      );
    }),
  );
  return calls;
}

describe("the request-id lookup", () => {
  test("a verification's request id shows its outcome, time and key with the explanation", async () => {
    const expiredAt = Date.now() - 3 * 86_400_000;
    const calls = stubFetch((url, body) =>
      url.endsWith("/v2/analytics.getVerifications")
        ? jsonResponse(200, {
            meta: { requestId: "req_Q1" },
            data: [
              {
                request_id: "req_4VmxDkT9",
                time: Date.now() - 60_000,
                key_id: "key_3ZbK9",
                outcome: "EXPIRED",
                region: "eu-west-1",
                tags: ["path=/x"],
              },
            ],
          })
        : jsonResponse(200, {
            meta: { requestId: "req_K1" },
            data: {
              keyId: body.keyId,
              name: "Nightly export",
              start: "sk",
              enabled: true,
              createdAt: 1,
              expires: expiredAt,
            },
          }),
    );
    const user = renderLookup(CONNECTION);
    await user.type(screen.getByLabelText("Request id"), "req_4VmxDkT9{Enter}");
    const found = await screen.findByRole("article", { name: "The verification" });
    expect(within(found).getByText("EXPIRED", { selector: "dd code" })).toBeVisible();
    expect(await within(found).findByRole("link", { name: /Nightly export key_3ZbK9/ })).toHaveAttribute(
      "href",
      "/keys/key_3ZbK9",
    );
    expect(within(found).getByRole("heading", { name: /Refused: the key has expired/ })).toBeVisible();
    expect(within(found).getByText("Expired 3 days ago.")).toBeVisible();
    expect(calls[0]).toBe("http://127.0.0.1:8799/v2/analytics.getVerifications");
  });

  test("a verification a moment later than the page's clock (it ticks once a minute) reads 'just now', not as the future", async () => {
    const now = Date.now();
    stubFetch((url, body) =>
      url.endsWith("/v2/analytics.getVerifications")
        ? jsonResponse(200, {
            meta: { requestId: "req_Q2" },
            data: [
              {
                request_id: "req_Later1",
                time: now + 20_000,
                key_id: "key_3ZbK9",
                outcome: "VALID",
                region: "",
                tags: [],
              },
            ],
          })
        : jsonResponse(200, {
            meta: { requestId: "req_K2" },
            data: { keyId: body.keyId, name: "Checkout", start: "sk", enabled: true, createdAt: 1 },
          }),
    );
    const user = renderLookup(CONNECTION, null, now);
    await user.type(screen.getByLabelText("Request id"), "req_Later1{Enter}");
    const found = await screen.findByRole("article", { name: "The verification" });
    expect(within(found).getByText("Time").nextElementSibling).toHaveTextContent(/^just now · /);
  });

  test("one of this tab's own requests sent after the page's clock read reads 'just now'", async () => {
    stubFetch(() =>
      errorEnvelope(
        404,
        "Not Found",
        "The key does not exist",
        "http://127.0.0.1:8799/docs/errors/svc/data/key_not_found",
      ),
    );
    const now = Date.now() - 30_000;
    await expect(getKey(CONNECTION, "key_Missing1")).rejects.toThrow();
    stubFetch(() => jsonResponse(200, { meta: { requestId: "req_Q3" }, data: [] }));
    const user = renderLookup(CONNECTION, null, now);
    await user.type(screen.getByLabelText("Request id"), "req_8Hq2Lm{Enter}");
    const own = await screen.findByRole("article", { name: "Keyscope's own request" });
    expect(within(own).getByText("Time").nextElementSibling).toHaveTextContent(/^just now · /);
  });

  test("a string that is not a request id is refused before anything is sent", async () => {
    const calls = stubFetch(() => jsonResponse(200, { meta: {}, data: [] }));
    const user = renderLookup(CONNECTION);
    await user.type(screen.getByLabelText("Request id"), "req_x' OR '1'='1{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("is not a request id");
    expect(calls).toEqual([]);
  });

  test("one of this tab's own requests shows what was sent, with the key redacted, and what came back", async () => {
    stubFetch(() =>
      errorEnvelope(
        404,
        "Not Found",
        "The key does not exist",
        "http://127.0.0.1:8799/docs/errors/svc/data/key_not_found",
      ),
    );
    await expect(getKey(CONNECTION, "key_Missing1")).rejects.toThrow();
    stubFetch(() => jsonResponse(200, { meta: { requestId: "req_Q2" }, data: [] }));
    const user = renderLookup(CONNECTION);
    await user.type(screen.getByLabelText("Request id"), "req_8Hq2Lm{Enter}");
    const own = await screen.findByRole("article", { name: "Keyscope's own request" });
    expect(own).toHaveTextContent("POST http://127.0.0.1:8799/v2/keys.getKey");
    expect(own).toHaveTextContent('{"keyId":"key_Missing1"}');
    expect(own).toHaveTextContent("Bearer [redacted]");
    expect(own).toHaveTextContent("404");
    expect(own).toHaveTextContent("The key does not exist");
    expect(document.body.textContent).not.toContain(CONNECTION.apiKey);
  });

  test("without read_analytics the lookup says which permission is missing", async () => {
    stubFetch(() =>
      errorEnvelope(
        403,
        "Insufficient Permissions",
        "Missing one of these permissions: api.*.read_analytics",
        "http://127.0.0.1:8799/docs/errors/svc/authorization/insufficient_permissions",
      ),
    );
    renderLookup(CONNECTION, "req_4VmxDkT9");
    expect(await screen.findByTestId("analytics-notice")).toHaveTextContent("api.*.read_analytics");
  });
});
