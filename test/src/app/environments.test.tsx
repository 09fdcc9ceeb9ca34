import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { expect, test, vi } from "vitest";
import { QueryClientProvider } from "@tanstack/react-query";
import { appRoutes } from "@/app/router";
import { readConnection, saveConnection } from "@/features/connect/key-store";
import { addEnvironment } from "@/features/environments/environment-store";
import { keysEnvelope, makeKeys, stubApi } from "../support/keys-api";
import { freshQueryClientPerTest } from "../support/query-tests";

const KEY = "ks_root_S3cr3tValue42";
const DEV = "http://127.0.0.1:8799";
const PROD = "https://api.example.com";

const queryClient = freshQueryClientPerTest();

test("the header shows the active environment; switching drops cached answers and asks for the key of the other one", async () => {
  addEnvironment({ name: "Development", baseUrl: DEV });
  addEnvironment({ name: "Production", baseUrl: PROD, apiId: "api_prod" });
  saveConnection({ baseUrl: DEV, apiKey: KEY });
  const api = stubApi(keysEnvelope(makeKeys(3)));
  const router = createMemoryRouter(appRoutes(queryClient()), { initialEntries: ["/keys"] });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  expect(await screen.findByText("Service 0", {}, { timeout: 5000 })).toBeVisible();
  expect(await screen.findByTestId("environment-badge")).toHaveTextContent("Development");
  const cached = queryClient().getQueryCache().getAll().length;
  expect(cached).toBeGreaterThan(0);
  const clear = vi.spyOn(queryClient(), "clear");

  await user.click(screen.getByRole("button", { name: "Switch environment" }));
  await user.click(screen.getByRole("menuitem", { name: /^Production/ }));

  // The development key is not sent to production: key entry asks for production's key.
  expect(await screen.findByLabelText("API key", {}, { timeout: 5000 })).toHaveValue("");
  await waitFor(() => expect(readConnection()).toBeNull());
  expect(clear).toHaveBeenCalled();
  expect(router.state.location.pathname).toBe("/connect");
  expect(await screen.findByLabelText("Base URL")).toHaveValue(PROD);
  // Key entry says why the key is gone.
  expect(await screen.findByText(/^The key you had entered was for/)).toHaveTextContent(
    `The key you had entered was for ${DEV}, so it did not follow you to Production, which is at another address`,
  );
  expect(api.requests.every((request) => request.url.startsWith(DEV))).toBe(true);

  await user.type(screen.getByLabelText("API key"), "ks_root_Pr0dKeyValue77{Enter}");
  await screen.findByText("Service 0", {}, { timeout: 5000 });
  expect(await screen.findByTestId("environment-badge")).toHaveTextContent("Production");
  expect(api.requests.at(-1)).toMatchObject({ url: `${PROD}/v2/apis.listKeys`, body: { apiId: "api_prod" } });
  // The environments in localStorage hold no key.
  expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
});

test("the troubleshoot page is linked from every screen's header and has its own title", async () => {
  const router = createMemoryRouter(appRoutes(queryClient()), { initialEntries: ["/connect"] });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await user.click(await screen.findByRole("link", { name: "Troubleshoot" }));
  expect(await screen.findByRole("heading", { level: 1, name: "Troubleshoot" }, { timeout: 5000 })).toBeVisible();
  await waitFor(() => expect(document.title).toBe("Troubleshoot · Keyscope"));
  expect(screen.getByRole("button", { name: "Run diagnostics" })).toBeVisible();
});
