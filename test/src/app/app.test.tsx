import { createQueryClient } from "@/lib/query-client";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { App } from "@/app/app";
import { QueryClientProvider } from "@tanstack/react-query";
import { rootOptions } from "@/app/root-options";
import { appRoutes } from "@/app/router";
import { readConnection, readTarget, saveConnection } from "@/features/connect/key-store";
import { takeConsoleErrors } from "../setup";
import { jsonResponse, keyNotFound, keysEnvelope, makeKeys, stubApi } from "../support/keys-api";
import { freshQueryClientPerTest } from "../support/query-tests";

const KEY = "ks_root_S3cr3tValue42";
const BASE_URL = "http://127.0.0.1:8799";

const queryClient = freshQueryClientPerTest();

function renderApp(path: string, routes: RouteObject[] = appRoutes(queryClient())) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
    { onCaughtError: rootOptions.onCaughtError },
  );
  return { router, user };
}

function connect() {
  saveConnection({ baseUrl: BASE_URL, apiKey: KEY });
}

describe("routing", () => {
  test("a keyless user who opens /keys is sent to key entry", async () => {
    const { router } = renderApp("/keys");
    // The first test to visit key entry pays for loading its lazy route's modules (slow on a busy machine) and
    // for the wait for another tab to hand over a key (no Web Locks here to tell at once that none holds one).
    expect(await screen.findByLabelText("API key", {}, { timeout: 20_000 })).toBeVisible();
    expect(router.state.location.pathname).toBe("/connect");
    await waitFor(() => expect(document.title).toBe("Connect · Keyscope"));
  }, 30_000);

  test("/ goes to key entry when no key is stored", async () => {
    const first = renderApp("/");
    await screen.findByLabelText("API key");
    expect(first.router.state.location.pathname).toBe("/connect");
  });

  test("/index.html is the home page, not a page that is not found", async () => {
    const { router } = renderApp("/index.html");
    await screen.findByLabelText("API key");
    expect(router.state.location.pathname).toBe("/connect");
  });

  test("/ goes to the keys when a key is stored", async () => {
    connect();
    stubApi(keysEnvelope(makeKeys(1)));
    const { router } = renderApp("/");
    expect(await screen.findByText("Service 0")).toBeVisible();
    expect(router.state.location.pathname).toBe("/keys");
    await waitFor(() => expect(document.title).toBe("Keys · Keyscope"));
  });

  test("with the app's query client, the keys route asks for the first page itself, once, and the list shows it", async () => {
    connect();
    const api = stubApi(keysEnvelope(makeKeys(1)));
    renderApp("/keys");
    expect(await screen.findByText("Service 0")).toBeVisible();
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  test("an unknown address gets a not-found page with a way home", async () => {
    const { router, user } = renderApp("/no/such/page");
    expect(await screen.findByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    expect(screen.getByText("/no/such/page")).toBeVisible();
    await waitFor(() => expect(document.title).toBe("Page not found · Keyscope"));
    await user.click(screen.getByRole("link", { name: "Go home" }));
    await screen.findByLabelText("API key");
    expect(router.state.location.pathname).toBe("/connect");
  });

  test("a page that crashes gets the error panel, not a blank page", async () => {
    function Broken(): never {
      throw new Error("render bug");
    }
    const [root] = appRoutes(queryClient());
    if (root === undefined || root.index === true) throw new Error("the app's routes start with the layout route");
    const withBrokenPage: RouteObject[] = [
      { ...root, children: [...(root.children ?? []), { path: "broken", Component: Broken }] },
    ];
    renderApp("/broken", withBrokenPage);
    const panel = await screen.findByRole("alert");
    // React Router logs a render error in development; that is expected here.
    takeConsoleErrors();
    // The panel loads lazily; its heading takes focus once it has mounted.
    await waitFor(() => expect(within(panel).getByRole("heading", { level: 2 })).toHaveFocus());
    expect(within(panel).getByRole("button", { name: "Retry" })).toBeVisible();
    // The fallback keeps the landmarks and a way on.
    expect(screen.getByRole("navigation", { name: "Main" })).toBeVisible();
    expect(screen.getByRole("main")).toContainElement(panel);
  });
});

describe("key entry", () => {
  test("a saved key opens the keys page and the header shows only its masked start", async () => {
    const api = stubApi(keysEnvelope([{ keyId: "key_2Xa9", name: "Billing worker" }]));
    const { router, user } = renderApp("/connect");
    const baseUrl = await screen.findByLabelText("Base URL");
    await user.clear(baseUrl);
    await user.type(baseUrl, BASE_URL);
    await user.type(screen.getByLabelText("API key"), `Bearer ${KEY}{Enter}`);

    expect(await screen.findByText("Billing worker")).toBeVisible();
    expect(router.state.location.pathname).toBe("/keys");
    // The form that had focus is gone: focus moves to the new page's content, not the body.
    expect(screen.getByRole("main")).toHaveFocus();
    expect(api.requests[0]).toMatchObject({ url: `${BASE_URL}/v2/keys.listKeys`, authorization: `Bearer ${KEY}` });

    const header = screen.getByRole("banner");
    expect(within(header).getByText("ks_root…e42")).toBeVisible();
    expect(within(header).getByText("127.0.0.1:8799")).toBeVisible();
    expect(document.body.textContent).not.toContain(KEY);
    expect(screen.getByRole("link", { name: "Keys" })).toHaveAttribute("aria-current", "page");
  });

  test("key entry says when a key is already stored and links back to the keys", async () => {
    connect();
    renderApp("/connect");
    expect(await screen.findByText(/is stored in this tab/)).toBeVisible();
    expect(screen.getByRole("link", { name: "Back to keys" })).toHaveAttribute("href", "/keys");
    expect(screen.getByLabelText("API key")).toHaveValue("");
    expect(screen.getByLabelText("Base URL")).toHaveValue(BASE_URL);
  });
});

describe("the header", () => {
  test("Forget key clears the key and the cache and returns to key entry", async () => {
    connect();
    stubApi(keysEnvelope(makeKeys(3)));
    const { router, user } = renderApp("/keys");
    await screen.findByText("Service 0");
    expect(
      queryClient()
        .getQueryCache()
        .findAll({ queryKey: ["keys", "list"] }),
    ).toHaveLength(1);

    await user.click(screen.getByRole("button", { name: "Forget key" }));
    expect(await screen.findByLabelText("API key")).toHaveValue("");
    expect(router.state.location.pathname).toBe("/connect");
    expect(readConnection()).toBeNull();
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(KEY);
    // localStorage holds only the mark that tells tabs opened later the key was forgotten: no secret.
    expect(Object.keys(localStorage)).toEqual(["keyscope.keyForgotten"]);
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
    expect(queryClient().getQueryCache().getAll()).toHaveLength(0);
    expect(screen.queryByRole("button", { name: "Forget key" })).not.toBeInTheDocument();
    expect(screen.getByLabelText("Base URL")).toHaveValue(BASE_URL);
  });
});

describe("key entry", () => {
  test("Forget key right after submitting, before the keys page came, leaves the key field empty", async () => {
    // The keys page's code never arrives: the app stays on key entry with the key stored, as on a slow network.
    const routes = withRoute(appRoutes(queryClient()), "keys", { lazy: () => new Promise<never>(() => undefined) });
    const { router, user } = renderApp("/connect", routes);
    // Key entry's code loads first (slow on a busy machine when this test runs alone).
    await user.type(await screen.findByLabelText("API key", {}, { timeout: 20_000 }), KEY);
    await user.keyboard("{Enter}");
    await user.click(await screen.findByRole("button", { name: "Forget key" }));
    await waitFor(() => expect(readConnection()).toBeNull());
    expect(router.state.location.pathname).toBe("/connect");
    expect(screen.getByLabelText("API key")).toHaveValue("");
    expect(screen.queryByDisplayValue(KEY)).not.toBeInTheDocument();
  }, 30_000);
});

/** The routes with the one whose path is `path` changed. */
function withRoute(routes: RouteObject[], path: string, change: Partial<RouteObject>): RouteObject[] {
  return routes.map((route) => {
    const children = route.children === undefined ? undefined : withRoute(route.children, path, change);
    const changed = route.path === path ? { ...route, ...change } : route;
    return (children === undefined ? changed : { ...changed, children }) as RouteObject;
  });
}

describe("errors on the keys page", () => {
  test("a refused key gets the error panel, and Retry asks again", async () => {
    connect();
    const disabled = jsonResponse(403, {
      meta: { requestId: "req_1" },
      error: {
        status: 403,
        title: "Key is disabled",
        detail: "The root key is disabled",
        type: "http://localhost/docs/errors/svc/authorization/key_disabled",
      },
    });
    const api = stubApi(disabled, keysEnvelope([{ keyId: "key_2Xa9", name: "Billing worker" }]));
    const { user } = renderApp("/keys");
    const panel = await screen.findByRole("alert");
    // The panel loads lazily; its heading takes focus once it has mounted.
    await waitFor(() => expect(within(panel).getByRole("heading", { level: 2 })).toHaveFocus());
    expect(panel).toHaveTextContent("err:svc:authorization:key_disabled");
    expect(screen.getByRole("heading", { level: 1, name: "Keys" })).toBeVisible();

    await user.click(within(panel).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Billing worker")).toBeVisible();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(api.requests).toHaveLength(2);
  });

  test("Re-enter key forgets the key and keeps the base URL", async () => {
    connect();
    stubApi(keyNotFound());
    const { router, user } = renderApp("/keys");
    const panel = await screen.findByRole("alert");
    await user.click(within(panel).getByRole("button", { name: "Re-enter key" }));
    expect(await screen.findByLabelText("API key")).toHaveValue("");
    expect(router.state.location.pathname).toBe("/connect");
    expect(screen.getByLabelText("Base URL")).toHaveValue(BASE_URL);
    expect(readConnection()).toBeNull();
    expect(readTarget()?.baseUrl).toBe(BASE_URL);
  });

  test("a failed refresh keeps the keys on screen under a notice that opens the panel", async () => {
    connect();
    const api = stubApi(
      keysEnvelope([{ keyId: "key_2Xa9", name: "Billing worker" }]),
      // A refusal of the key itself takes the list away (14.13); a rate limit keeps it under a notice.
      jsonResponse(429, {
        meta: { requestId: "req_1" },
        error: {
          status: 429,
          title: "Too Many Requests",
          detail: "The root key has used up its rate limit",
          type: "http://localhost/docs/errors/user/too_many_requests/rate_limited",
        },
      }),
      keysEnvelope([{ keyId: "key_2Xa9", name: "Billing worker (renamed)" }]),
    );
    const { user } = renderApp("/keys");
    await screen.findByText("Billing worker");
    await user.click(screen.getByRole("button", { name: "Refresh" }));

    // The notice's code loads on the first failure (a line says so meanwhile); then it words the error.
    await screen.findByRole("button", { name: "Show details" });
    const notice = screen.getByRole("alert");
    expect(notice).toHaveTextContent(
      "Refresh failed: Too many requests: wait a moment. The list shows the keys loaded before.",
    );
    expect(screen.getByText("Billing worker")).toBeVisible();

    await user.click(screen.getByRole("button", { name: "Show details" }));
    // The panel loads lazily: the first test to open it waits for its code.
    const panel = await screen.findByRole("alert", { name: /too many requests/i });
    expect(panel).toHaveTextContent("err:user:too_many_requests:rate_limited");
    // The panel loads lazily; its heading takes focus once it has mounted.
    await waitFor(() => expect(within(panel).getByRole("heading", { level: 2 })).toHaveFocus());

    await user.click(
      within(screen.getByRole("region", { name: "Refresh failed" })).getAllByRole("button", { name: "Retry" })[0]!,
    );
    expect(await screen.findByText("Billing worker (renamed)")).toBeVisible();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(api.requests).toHaveLength(3);
  });
  test("a rate-limited refresh offers Retry only once the API allows it", async () => {
    connect();
    stubApi(
      keysEnvelope([{ keyId: "key_2Xa9", name: "Billing worker" }]),
      jsonResponse(
        429,
        {
          meta: { requestId: "req_2" },
          error: {
            status: 429,
            title: "Too Many Requests",
            detail: "The root key has used up its rate limit",
            type: "http://localhost/docs/errors/user/too_many_requests/rate_limited",
          },
        },
        { "retry-after": "1" },
      ),
      keysEnvelope([{ keyId: "key_2Xa9", name: "Billing worker" }]),
    );
    const { user } = renderApp("/keys");
    await screen.findByText("Billing worker");
    await user.click(screen.getByRole("button", { name: "Refresh" }));

    // Once the notice's code is in (a line says so meanwhile), it holds Retry back until the API allows it.
    expect(await screen.findByRole("button", { name: "Retry in 1 s" })).toBeDisabled();
    const notice = screen.getByRole("region", { name: "Refresh failed" });
    expect(await within(notice).findByRole("button", { name: "Retry" }, { timeout: 3000 })).toBeEnabled();
  });
});

describe("the app", () => {
  test("starts in the browser at key entry when no key is stored", async () => {
    window.history.replaceState(null, "", "/");
    render(<App queryClient={createQueryClient()} />, { onCaughtError: rootOptions.onCaughtError });
    expect(await screen.findByLabelText("API key")).toBeVisible();
    expect(window.location.pathname).toBe("/connect");
    expect(screen.getByLabelText("Base URL")).toHaveValue(window.location.origin);
    expect(screen.getByRole("link", { name: "Keyscope" })).toHaveAttribute("href", "/");
  });
});
