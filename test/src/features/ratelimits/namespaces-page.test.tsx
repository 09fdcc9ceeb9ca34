import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { forgetLearntIds, NAMESPACES_ITEM } from "@/features/ratelimits/known-namespaces";
import { forgetAccessMemory } from "@/lib/access-memory";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { stubRatelimitApi, type FakeNamespace } from "../../support/ratelimit-api";
import { KEY, renderRatelimits } from "./ratelimits-harness";

const queryClient = freshQueryClientPerTest();

const namespaces = (): FakeNamespace[] => [
  { name: "api.requests", id: "rlns_Api1", overrides: [] },
  { name: "sms.sign_up", id: "rlns_Sms2", overrides: [] },
];

beforeEach(() => {
  forgetLearntIds();
  forgetAccessMemory();
});

async function add(user: ReturnType<typeof renderRatelimits>["user"], name: string) {
  await user.type(await screen.findByLabelText("Namespace name or id"), name);
  await user.click(screen.getByRole("button", { name: "Add namespace" }));
}

describe("the Rate limits section", () => {
  test("a namespace typed once is checked with the service and remembered for this connection: its name only, never the key", async () => {
    const api = stubRatelimitApi(namespaces());
    const { user } = renderRatelimits(queryClient(), "/ratelimits");
    expect(await screen.findByText(/None yet for this root key/)).toBeVisible();
    await add(user, "api.requests");
    const list = await screen.findByRole("list");
    expect(within(list).getByRole("link", { name: "api.requests" })).toHaveAttribute(
      "href",
      "/ratelimits/api.requests",
    );
    expect(api.of("listOverrides")).toEqual([
      { operation: "listOverrides", body: { namespace: "api.requests", limit: 1 } },
    ]);
    const stored = localStorage.getItem(NAMESPACES_ITEM) ?? "";
    expect(stored).toContain("api.requests");
    expect(stored).not.toContain(KEY);
  });

  test("another root key does not see the namespaces remembered for this one", async () => {
    stubRatelimitApi(namespaces());
    const first = renderRatelimits(queryClient(), "/ratelimits");
    await add(first.user, "api.requests");
    expect(await screen.findByRole("link", { name: "api.requests" })).toBeVisible();
    first.router.dispose();
    document.body.innerHTML = "";
    renderRatelimits(queryClient(), "/ratelimits", "ks_root_AnotherRootKey77");
    expect(await screen.findByText(/None yet for this root key/)).toBeVisible();
  });

  test("a namespace the service does not have is said plainly, with how to make one, and is not remembered", async () => {
    stubRatelimitApi(namespaces());
    const { user } = renderRatelimits(queryClient(), "/ratelimits");
    await add(user, "sms.sign_in");
    const missing = await screen.findByTestId("namespace-missing");
    expect(missing).toHaveTextContent("There is no namespace “sms.sign_in” in this root key’s workspace");
    expect(missing).toHaveTextContent("ratelimit.*.create_namespace");
    expect(missing).toHaveTextContent("npm run admin -- namespaces create --name 'sms.sign_in'");
    expect(missing).toHaveTextContent(`"namespace":"sms.sign_in"`);
    expect(screen.queryByRole("link", { name: "sms.sign_in" })).toBeNull();
    expect(localStorage.getItem(NAMESPACES_ITEM) ?? "").not.toContain("sms.sign_in");
  });

  test("a namespace whose overrides the root key may not read still exists (the service finds it first): it is remembered with the id the refusal named", async () => {
    stubRatelimitApi(namespaces(), { refuse: ["listOverrides"] });
    const { user } = renderRatelimits(queryClient(), "/ratelimits");
    await add(user, "sms.sign_up");
    expect(await screen.findByRole("link", { name: "sms.sign_up" })).toBeVisible();
    expect(localStorage.getItem(NAMESPACES_ITEM) ?? "").toContain("rlns_Sms2");
  });

  test("a service without ratelimit.listOverrides (a proxy to an older deployment) is said for the whole section", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() =>
        Promise.resolve(new Response("404 page not found", { status: 404, headers: { "content-type": "text/plain" } })),
      ),
    );
    const { user } = renderRatelimits(queryClient(), "/ratelimits");
    await add(user, "api.requests");
    expect(
      await screen.findByRole("heading", { name: "Rate limits are not available on this connection" }),
    ).toBeVisible();
    expect(screen.queryByRole("link", { name: "api.requests" })).toBeNull();
  });

  test("a root key refused a namespace's overrides is told, in the section too, which permission reads them", async () => {
    stubRatelimitApi(namespaces(), { refuse: ["listOverrides"] });
    const { user } = renderRatelimits(queryClient(), "/ratelimits");
    await add(user, "sms.sign_up");
    const notice = await screen.findByRole("region", { name: "This root key may not read rate limits" });
    expect(notice).toHaveTextContent("ratelimit.*.read_override or ratelimit.<namespaceId>.read_override");
  });

  test("Forget lets a namespace go from this browser, and Undo brings it back", async () => {
    stubRatelimitApi(namespaces());
    const { user } = renderRatelimits(queryClient(), "/ratelimits");
    await add(user, "api.requests");
    await user.click(await screen.findByRole("button", { name: "Forget api.requests" }));
    expect(screen.getByRole("status", { name: "" })).toHaveTextContent(/Forgot api.requests in this browser/);
    expect(screen.queryByRole("link", { name: "api.requests" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Undo" }));
    expect(await screen.findByRole("link", { name: "api.requests" })).toBeVisible();
  });
});
