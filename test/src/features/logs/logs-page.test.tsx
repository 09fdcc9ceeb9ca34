import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, test, vi } from "vitest";
import { RequireConnection } from "@/app/require-connection";
import { rootOptions } from "@/app/root-options";
import { LogsRoute } from "@/app/routes/logs-route";
import { saveConnection } from "@/features/connect/key-store";
import { DOCUMENTED_FUNCTIONS } from "../../../../server/analytics/dialect";
import { errorEnvelope, jsonResponse } from "../../support/keys-api";
import { freshQueryClientPerTest } from "../../support/query-tests";

// happy-dom draws no canvas: the chart stands in as its accessible image; its numbers are in its table anyway.
vi.mock("@/components/stacked-bars-chart", () => ({
  StackedBarsChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const KEY = "ks_root_S3cr3tValue42";
const BASE_URL = "http://127.0.0.1:8799";
const KEY_ID = "key_3ZbK9mQ";
const MINUTE = 60_000;

const queryClient = freshQueryClientPerTest();

interface Row {
  request_id: string;
  time: number;
  outcome: string;
  key_id: string;
  external_id: string;
  tags: string[];
  region: string;
}

function row(n: number, overrides: Partial<Row> = {}): Row {
  return {
    request_id: `req_Row${n}`,
    time: Date.now() - n * MINUTE,
    outcome: n % 3 === 0 ? "RATE_LIMITED" : "VALID",
    key_id: KEY_ID,
    external_id: n % 2 === 0 ? "org_acme" : "",
    tags: ["path=/api/users"],
    region: "eu-west-1",
    ...overrides,
  };
}

/** A stubbed API: analytics answered by the kind of query (recorded), keys.getKey with one key. */
function fakeApi(analytics: (query: string) => Response) {
  const queries: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      const body = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as { query?: string };
      if (url.endsWith("/v2/keys.getKey"))
        return Promise.resolve(
          jsonResponse(200, {
            meta: { requestId: "req_GetKey1" },
            data: { keyId: KEY_ID, name: "Billing worker", start: "sk", enabled: false, createdAt: Date.now() },
          }),
        );
      if (url.endsWith("/v2/analytics.getVerifications")) {
        queries.push(body.query ?? "");
        return Promise.resolve(analytics(body.query ?? ""));
      }
      return Promise.resolve(new Response("not found", { status: 404 }));
    }),
  );
  return { queries };
}

const rowsAnswer = (rows: unknown[]) => jsonResponse(200, { meta: { requestId: "req_Rows1" }, data: rows });

/** The reference server's answers to the page's three queries, from `rows`. */
function answersFrom(rows: Row[]) {
  return (query: string): Response => {
    if (query.includes(" AS bucket")) {
      return rowsAnswer(
        rows.map((item) => ({
          bucket: new Date(Math.floor(item.time / 3_600_000) * 3_600_000).toISOString(),
          outcome: item.outcome,
          total: 1,
        })),
      );
    }
    if (query.startsWith("WITH refused_rows")) return rowsAnswer([{ kind: "key", id: KEY_ID, refusals: 4 }]);
    if (query.includes("OVER ()")) return rowsAnswer([]);
    return rowsAnswer(rows);
  };
}

function renderLogs(path = "/logs") {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
  const router = createMemoryRouter(
    [
      {
        path: "/",
        Component: RequireConnection,
        children: [
          { path: "logs", Component: LogsRoute },
          { path: "keys/:keyId", element: <p>A key&apos;s page</p> },
        ],
      },
      { path: "/troubleshoot", element: <p>Troubleshoot</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
    { onCaughtError: rootOptions.onCaughtError },
  );
  return { router, user: userEvent.setup() };
}

describe("the Logs page", () => {
  test("lists the verifications, counts them, and every query it sends names its columns, is bounded below and calls only documented functions", async () => {
    const rows = [row(1), row(2), row(3)];
    const { queries } = fakeApi(answersFrom(rows));
    renderLogs();
    const table = await screen.findByRole("table", { name: "Verifications, newest first" });
    expect(await within(table).findAllByRole("row")).toHaveLength(4);
    expect(await screen.findByTestId("log-total")).toHaveTextContent("3 verifications, 1 refused");
    expect(queries).toHaveLength(3);
    const allowed = new Set(DOCUMENTED_FUNCTIONS.map((name) => name.toLowerCase()));
    for (const query of queries) {
      expect(query).not.toMatch(/SELECT \*/i);
      expect(query).toMatch(/time >= (fromUnixTimestamp64Milli\()?\d{13}/);
      for (const [, name] of query.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)\(/g))
        expect(allowed).toContain(name?.toLowerCase());
    }
  });

  test("each filter is a step in the address; Back steps through them; a filter that matches nothing says so and offers to widen", async () => {
    const rows = [row(1), row(2), row(3)];
    fakeApi((query) => (query.includes("outcome = 'EXPIRED'") ? rowsAnswer([]) : answersFrom(rows)(query)));
    const { router, user } = renderLogs();
    await screen.findByRole("table", { name: "Verifications, newest first" });

    await user.selectOptions(screen.getByLabelText("Time range"), "7d");
    expect(router.state.location.search).toBe("?range=7d");
    await user.click(screen.getByText("All outcomes"));
    await user.click(screen.getByRole("checkbox", { name: "EXPIRED" }));
    expect(router.state.location.search).toBe("?range=7d&outcome=EXPIRED");
    expect(await screen.findByText(/match these filters/)).toHaveTextContent(
      "No verifications match these filters in the last 7 days.",
    );
    expect(screen.getByRole("link", { name: "Widen to the last 30 days" })).toHaveAttribute(
      "href",
      "/logs?range=30d&outcome=EXPIRED",
    );

    await user.type(screen.getByLabelText("External id"), "org_acme");
    await user.type(screen.getByLabelText("Tag", { selector: "input" }), "path=/api/o'brien");
    await user.click(screen.getByRole("button", { name: "Apply filters" }));
    expect(router.state.location.search).toBe(
      "?range=7d&outcome=EXPIRED&identity=org_acme&tag=path%3D%2Fapi%2Fo%27brien",
    );
    expect(await screen.findByRole("link", { name: "Remove the filter Tag is path=/api/o'brien" })).toHaveAttribute(
      "href",
      "/logs?range=7d&outcome=EXPIRED&identity=org_acme",
    );

    await router.navigate(-1);
    expect(router.state.location.search).toBe("?range=7d&outcome=EXPIRED");
    await router.navigate(-1);
    expect(router.state.location.search).toBe("?range=7d");
    expect(await screen.findByTestId("log-total")).toHaveTextContent("3 verifications");
  });

  test("a row's details: every field, Copy as JSON, links to the key's page and the lookup, and the key's verdict now", async () => {
    fakeApi(answersFrom([row(1, { tags: ["path=/api/users", "\u202Egnp.exe"] })]));
    const { router, user } = renderLogs();
    const open = await screen.findByRole("button", { name: /VALID: details$/ });
    await user.click(open);
    expect(router.state.location.search).toBe("?row=req_Row1");
    const details = await screen.findByRole("dialog", { name: "Verification details" });
    expect(within(details).getAllByText("req_Row1").length).toBeGreaterThan(0);
    expect(within(details).getByText("⟨U+202E⟩")).toBeInTheDocument();
    expect(within(details).getByRole("button", { name: "Copy as JSON" })).toBeInTheDocument();
    expect(within(details).getByRole("link", { name: "Open the key's page" })).toHaveAttribute(
      "href",
      `/keys/${KEY_ID}`,
    );
    expect(within(details).getByRole("link", { name: "Look up this request id" })).toHaveAttribute(
      "href",
      "/troubleshoot?request=req_Row1#request-id",
    );
    expect(await within(details).findByTestId("key-verdict")).toHaveTextContent(/Refused because it is disabled/);
    await user.click(within(details).getByRole("button", { name: "Close" }));
    expect(router.state.location.search).toBe("");
  });

  test("a link to a row not among those loaded looks it up by its request id", async () => {
    const { queries } = fakeApi((query) =>
      query.includes("request_id = 'req_Xyz9'")
        ? rowsAnswer([row(9, { request_id: "req_Xyz9" })])
        : answersFrom([row(1)])(query),
    );
    renderLogs("/logs?row=req_Xyz9");
    const details = await screen.findByRole("dialog", { name: "Verification details" });
    expect(await within(details).findByText("Only this key")).toBeInTheDocument();
    expect(queries.filter((query) => query.includes("request_id = 'req_Xyz9'"))).toHaveLength(1);
  });

  test("a range past the retention gets its panel and a way back inside it; what a link held that is no filter is said", async () => {
    fakeApi(() =>
      errorEnvelope(
        400,
        "Bad Request",
        "Cannot query data older than 30 days.",
        "http://127.0.0.1:8799/docs/errors/user/bad_request/query_range_exceeds_retention",
      ),
    );
    renderLogs("/logs?from=2026-01-01T00:00:00.000Z&to=2026-01-02T00:00:00.000Z&key=nope");
    expect(
      await screen.findByRole("heading", { name: /further back than the workspace keeps its verifications/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Show the last 30 days instead" })).toHaveAttribute(
      "href",
      "/logs?range=30d",
    );
    expect(screen.getByText(/1 of the link's keys \(not a key id\) were left out/)).toBeInTheDocument();
    expect(screen.getByText(/No rows: the refusal is above/)).toBeInTheDocument();
  });

  test("Live stops at the workspace's quota and says when it can resume", async () => {
    const { queries } = fakeApi((query) =>
      query.includes("OVER ()")
        ? jsonResponse(
            429,
            {
              meta: { requestId: "req_Quota1" },
              error: {
                status: 429,
                title: "Too Many Requests",
                detail: "The workspace has used its 1000 analytics queries for this window",
                type: "http://127.0.0.1:8799/docs/errors/user/too_many_requests/query_quota_exceeded",
              },
            },
            { "retry-after": "600" },
          )
        : answersFrom([row(1)])(query),
    );
    const { user } = renderLogs();
    await screen.findByRole("table", { name: "Verifications, newest first" });
    await user.click(screen.getByRole("button", { name: "Live", pressed: false }));
    expect(await screen.findByText(/so Live stopped\. It can resume at .* UTC \(in 10 minutes\)/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Live" })).toBeDisabled();
    expect(screen.getByRole("heading", { name: /1,000 analytics queries/ })).toBeInTheDocument();
    expect(queries.filter((query) => query.includes("OVER ()"))).toHaveLength(1);
  });
});
