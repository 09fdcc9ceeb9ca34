/**
 * Keys page search that reaches the server: with the connection's API known, typing an external id asks
 * `apis.listKeys` with `externalId` and shows the identity's keys, not only the loaded ones that match.
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { KeysList } from "@/features/keys/components/keys-list";
import type { Connection } from "@/lib/api/transport";
import { makeKeys, realServiceEnvelope, stubApi } from "../../../support/keys-api";
import { freshQueryClientPerTest } from "../../../support/query-tests";

const queryClient = freshQueryClientPerTest();
const BASE = "https://api.real.example";
const KEY = "unkey_3ZbQ7rEalKey9xT";
const ACME_KEY = { keyId: "key_9Acme1", name: "Acme integration", identity: { id: "id_1", externalId: "org_acme" } };

function renderList(connection: Connection) {
  render(
    <MemoryRouter>
      <QueryClientProvider client={queryClient()}>
        <KeysList connection={connection} renderRefreshError={() => null} />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

/** The first page has 100 keys and a second one 100 more; an externalId lists that identity's keys. */
function answer(body: Record<string, unknown>) {
  if (body.externalId === "org_acme") return realServiceEnvelope([ACME_KEY], { hasMore: false });
  if (body.externalId !== undefined) return realServiceEnvelope([], { hasMore: false });
  if (body.cursor !== undefined) return realServiceEnvelope(makeKeys(100, 100), { hasMore: false });
  return realServiceEnvelope(makeKeys(100), { cursor: "key_000099", hasMore: true });
}

const table = () => screen.getByRole("table", { name: "API keys" });

describe("searching keys by external id", () => {
  test("with the API known, an external id typed is asked of apis.listKeys, and that identity's keys are shown", async () => {
    const api = stubApi(answer);
    const user = renderList({ baseUrl: BASE, apiKey: KEY, apiId: "api_9Real" });
    await user.type(await screen.findByRole("searchbox", { name: "Filter keys" }), "org_acme");
    expect(await screen.findByText("Acme integration", {}, { timeout: 5000 })).toBeInTheDocument();
    expect(within(table()).getByText("Acme integration")).toBeInTheDocument();
    const asked = api.requests.filter((request) => request.body.externalId !== undefined);
    expect(asked).toEqual([
      expect.objectContaining({
        url: `${BASE}/v2/apis.listKeys`,
        body: expect.objectContaining({ apiId: "api_9Real", externalId: "org_acme" }) as unknown,
      }),
    ]);
    expect(screen.getByText(/Found with/)).toHaveTextContent(
      "Found with apis.listKeys: 1 key of the external id “org_acme”, 1 of it not among the loaded keys.",
    );
    expect(screen.getByText("1 key, found by external id")).toBeInTheDocument();
  });

  test("without an API, nothing but the keys themselves is searched", async () => {
    const api = stubApi(answer);
    const user = renderList({ baseUrl: BASE, apiKey: KEY });
    await user.type(await screen.findByRole("searchbox", { name: "Filter keys" }), "org_acme");
    expect(await screen.findByRole("heading", { name: "No keys match “org_acme”" })).toBeInTheDocument();
    expect(api.requests.filter((request) => request.body.externalId !== undefined)).toEqual([]);
  });

  test("a name with spaces is not asked for as an external id", async () => {
    const api = stubApi(answer);
    const user = renderList({ baseUrl: BASE, apiKey: KEY, apiId: "api_9Real" });
    await user.type(await screen.findByRole("searchbox", { name: "Filter keys" }), "Service 1");
    expect(await within(table()).findByText("Service 1")).toBeInTheDocument();
    expect(api.requests.filter((request) => request.body.externalId !== undefined)).toEqual([]);
  });
});
