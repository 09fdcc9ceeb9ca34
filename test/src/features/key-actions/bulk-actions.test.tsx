import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { BulkActions } from "@/features/key-actions/components/bulk-actions";
import type { KeyCache } from "@/features/key-actions/key-cache";
import { forgetRefusals, isKnownAllowed, refusalOf } from "@/features/key-actions/refusals";
import { ApiError, NetworkError } from "@/lib/api-errors";
import type { Connection } from "@/lib/api/transport";
import { DELETE_KEY_PATH, UPDATE_KEY_PATH } from "@/lib/contract";
import { errorEnvelope, jsonResponse, makeKeys } from "../../support/keys-api";

const CONNECTION: Connection = { baseUrl: "http://127.0.0.1:8799", apiKey: "ks_root_S3cr3tValue42" };
const ok = () => jsonResponse(200, { meta: { requestId: "req_ok" }, data: {} });
const notFound = () =>
  errorEnvelope(404, "Not Found", "The key does not exist.", "https://unkey.com/docs/errors/unkey/data/key_not_found");

afterEach(() => {
  forgetRefusals();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A stubbed API that answers each key's change with `answer(keyId, path)`, recording every request. */
function stubChanges(answer: (keyId: string, path: string) => Response | Promise<Response>) {
  const requests: { path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>;
      const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
      requests.push({ path, body });
      return answer(String(body.keyId), path);
    }),
  );
  return requests;
}

function fakeCache() {
  return {
    patchKey: vi.fn<KeyCache["patchKey"]>(() => () => undefined),
    keysPatched: vi.fn<KeyCache["keysPatched"]>(),
    refreshKey: vi.fn<KeyCache["refreshKey"]>(() => Promise.resolve()),
    keyCreated: vi.fn<KeyCache["keyCreated"]>(() => Promise.resolve()),
    keyDeleted: vi.fn<KeyCache["keyDeleted"]>(),
  };
}

function renderBulk(count: number) {
  const keys = makeKeys(count);
  const cache = fakeCache();
  const user = userEvent.setup();
  render(
    <BulkActions
      connection={CONNECTION}
      keys={keys}
      cache={cache}
      describeFailure={(error) =>
        error instanceof ApiError
          ? `Catalog: ${error.title}`
          : error instanceof NetworkError
            ? "Catalog: offline"
            : "Catalog: other"
      }
    />,
  );
  return { user, cache };
}

const dialog = () => screen.getByRole("dialog");

describe("bulk actions", () => {
  test("disabling asks once, naming the count, then reports each key: the one refused with the catalog's words", async () => {
    const requests = stubChanges((keyId) => (keyId === "key_000003" ? notFound() : ok()));
    const { user, cache } = renderBulk(5);
    await user.click(screen.getByRole("button", { name: "Disable" }));
    expect(within(dialog()).getByRole("heading")).toHaveTextContent("Disable 5 keys?");
    expect(requests).toEqual([]);
    await user.click(within(dialog()).getByRole("button", { name: "Disable 5 keys" }));

    expect(await screen.findByRole("heading", { name: "Disabled 4 of 5 keys" })).toBeInTheDocument();
    expect(within(dialog()).getByText(/4 succeeded, 1 failed/)).toBeInTheDocument();
    const failed = within(dialog()).getByRole("list", { name: "Failed" });
    expect(within(failed).getAllByRole("listitem")).toHaveLength(1);
    expect(failed).toHaveTextContent("Service 3 key_000003: Catalog: Not Found");
    expect(requests.map((request) => request.path)).toEqual(Array(5).fill(UPDATE_KEY_PATH));
    expect(requests.every((request) => request.body.enabled === false)).toBe(true);
    // The list shows the four at once; the other tabs are told the change itself, so no key is reloaded one by one.
    expect(cache.patchKey.mock.calls.map(([keyId]) => keyId).sort()).toEqual([
      "key_000000",
      "key_000001",
      "key_000002",
      "key_000004",
    ]);
    expect(cache.keysPatched).toHaveBeenCalledTimes(1);
    expect(cache.keysPatched.mock.calls[0]?.[0].slice().sort()).toEqual([
      "key_000000",
      "key_000001",
      "key_000002",
      "key_000004",
    ]);
    expect(cache.keysPatched.mock.calls[0]?.[1]).toEqual({ enabled: false });
    expect(cache.refreshKey).not.toHaveBeenCalled();
    await user.click(within(dialog()).getByRole("button", { name: "Done" }));
    expect(screen.getByRole("button", { name: "Disable" })).toHaveFocus();
  });

  test("Retry asks again for the keys not changed alone, and the result counts every key", async () => {
    let refuse = true;
    const requests = stubChanges((keyId) => (keyId === "key_000001" && refuse ? notFound() : ok()));
    const { user } = renderBulk(3);
    await user.click(screen.getByRole("button", { name: "Enable" }));
    await user.click(within(dialog()).getByRole("button", { name: "Enable 3 keys" }));
    await screen.findByRole("heading", { name: "Enabled 2 of 3 keys" });
    refuse = false;
    requests.length = 0;
    await user.click(within(dialog()).getByRole("button", { name: "Retry the 1 not changed" }));

    expect(await screen.findByRole("heading", { name: "Enabled 3 keys" })).toBeInTheDocument();
    expect(requests.map((request) => request.body.keyId)).toEqual(["key_000001"]);
  });

  test("a refusal in a bulk run is remembered for the key's API, as the key's page would: its buttons then say what is missing", async () => {
    const forbidden = () =>
      errorEnvelope(
        403,
        "Forbidden",
        "Missing one of these permissions: api.*.update_key, api.api_other.update_key",
        "https://unkey.com/docs/errors/unkey/authorization/insufficient_permissions",
      );
    stubChanges((keyId) => (keyId === "key_000001" ? forbidden() : ok()));
    const { user } = renderBulk(3);
    await user.click(screen.getByRole("button", { name: "Disable" }));
    await user.click(within(dialog()).getByRole("button", { name: "Disable 3 keys" }));
    await screen.findByRole("heading", { name: "Disabled 2 of 3 keys" });

    expect(refusalOf(CONNECTION, "update_key", { keyId: "key_000001" })).toEqual({
      action: "update_key",
      apiId: "api_other",
      detail: "Missing one of these permissions: api.*.update_key, api.api_other.update_key",
    });
    expect(isKnownAllowed(CONNECTION, "update_key", { keyId: "key_000000" })).toBe(true);
    expect(refusalOf(CONNECTION, "update_key", { keyId: "key_000000" })).toBeUndefined();
  });

  test("delete is confirmed only by typing the count or 'delete N keys'", async () => {
    const requests = stubChanges(() => ok());
    const { user } = renderBulk(2);
    await user.click(screen.getByRole("button", { name: "Delete" }));
    const confirm = within(dialog()).getByRole("button", { name: "Delete 2 keys" });
    expect(confirm).toBeDisabled();
    const field = within(dialog()).getByLabelText(/to confirm/);
    await user.type(field, "3");
    expect(confirm).toBeDisabled();
    await user.clear(field);
    await user.type(field, "delete 2 keys");
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await screen.findByRole("heading", { name: "Deleted 2 keys" })).toBeInTheDocument();
    expect(requests.map((request) => request.path)).toEqual([DELETE_KEY_PATH, DELETE_KEY_PATH]);
  });

  test("deleted keys leave the list when their result closes: they leave the selection, which would take the result with it", async () => {
    stubChanges((keyId) => (keyId === "key_000000" ? notFound() : ok()));
    const { user, cache } = renderBulk(3);
    await user.click(screen.getByRole("button", { name: "Delete" }));
    await user.type(within(dialog()).getByLabelText(/to confirm/), "3");
    await user.click(within(dialog()).getByRole("button", { name: "Delete 3 keys" }));
    await screen.findByRole("heading", { name: "Deleted 2 of 3 keys" });
    expect(cache.keyDeleted).not.toHaveBeenCalled();
    await user.click(within(dialog()).getByRole("button", { name: "Done" }));
    expect(cache.keyDeleted.mock.calls.map(([keyId]) => keyId)).toEqual(["key_000001", "key_000002"]);
  });

  test("Cancel starts no new change: the ones under way finish and the rest are reported as not tried", async () => {
    const pending: (() => void)[] = [];
    const requests = stubChanges(() => new Promise<Response>((resolve) => pending.push(() => resolve(ok()))));
    const { user, cache } = renderBulk(6);
    await user.click(screen.getByRole("button", { name: "Disable" }));
    await user.click(within(dialog()).getByRole("button", { name: "Disable 6 keys" }));
    expect(await screen.findByText("0 of 6 done")).toBeInTheDocument();
    // Four at a time.
    expect(requests).toHaveLength(4);
    await user.click(within(dialog()).getByRole("button", { name: "Cancel" }));
    for (const resolve of pending) resolve();

    expect(await screen.findByRole("heading", { name: "Disabled 4 of 6 keys" })).toBeInTheDocument();
    expect(requests).toHaveLength(4);
    expect(within(dialog()).getByText(/4 succeeded, 2 not tried \(cancelled\)/)).toBeInTheDocument();
    expect(within(dialog()).getByRole("list", { name: "Not tried" })).toHaveTextContent("key_000004");
    expect(cache.patchKey).toHaveBeenCalledTimes(4);
    await user.click(within(dialog()).getByRole("button", { name: "Run the 2 not tried" }));
    expect(await screen.findByText("0 of 2 done")).toBeInTheDocument();
  });

  test("a double click on the confirmation's button runs every key: its second click, on the Cancel now in its place, cancels nothing", async () => {
    // The first changes are held, so that the run is under way when the second click comes; the rest answer at once.
    const pending: (() => void)[] = [];
    let holding = true;
    const requests = stubChanges(() =>
      holding ? new Promise<Response>((resolve) => pending.push(() => resolve(ok()))) : ok(),
    );
    const { user } = renderBulk(6);
    await user.click(screen.getByRole("button", { name: "Disable" }));
    await user.click(within(dialog()).getByRole("button", { name: "Disable 6 keys" }));
    // In the browser the double click's second click (detail 2) lands where the first one was: on Cancel.
    fireEvent.click(await within(dialog()).findByRole("button", { name: "Cancel" }), { detail: 2 });
    holding = false;
    for (const resolve of pending) resolve();
    expect(await screen.findByRole("heading", { name: "Disabled 6 keys" })).toBeInTheDocument();
    expect(requests).toHaveLength(6);
  });

  test("a run that loses the connection stops, says so, and its retry repeats none of the keys that changed", async () => {
    let online = true;
    let connectionLost = false;
    const requests = stubChanges((keyId) => {
      // Lost as the second key is sent, and until the test brings it back.
      if (keyId === "key_000001" && !connectionLost) {
        connectionLost = true;
        online = false;
      }
      return online ? ok() : Promise.reject(new TypeError("Failed to fetch"));
    });
    const changesSent = () =>
      requests.flatMap((request) => (typeof request.body.keyId === "string" ? [request.body.keyId] : []));
    const { user } = renderBulk(12);
    await user.click(screen.getByRole("button", { name: "Disable" }));
    await user.click(within(dialog()).getByRole("button", { name: "Disable 12 keys" }));
    expect(await screen.findByRole("heading", { name: /^Disabled 1 of 12 keys$/ })).toBeInTheDocument();
    expect(
      within(dialog()).getByText(/not tried \(stopped\)\. Stopped at the first lost connection: Catalog: offline\./),
    ).toBeInTheDocument();
    // The keys after those under way were never sent.
    expect(changesSent()).not.toContain("key_000011");
    expect(within(dialog()).getByRole("list", { name: "Not tried" })).toHaveTextContent("key_000011");
    online = true;
    requests.length = 0;
    await user.click(within(dialog()).getByRole("button", { name: "Retry the 11 not changed" }));
    expect(await screen.findByRole("heading", { name: "Disabled 12 keys" })).toBeInTheDocument();
    expect(changesSent().sort()).toEqual(
      makeKeys(12)
        .slice(1)
        .map((key) => key.keyId),
    );
  });

  test("offline, the confirmation says so and sends nothing", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const requests = stubChanges(() => ok());
    const { user } = renderBulk(2);
    await user.click(screen.getByRole("button", { name: "Enable" }));
    expect(within(dialog()).getByText(/You are offline/)).toBeInTheDocument();
    expect(within(dialog()).getByRole("button", { name: "Enable 2 keys" })).toBeDisabled();
    expect(requests).toEqual([]);
  });

  test("a 429 is waited out as its Retry-After asks, said in the progress, and the key is tried again", async () => {
    let refused = false;
    const requests = stubChanges((keyId) => {
      if (keyId === "key_000000" && !refused) {
        refused = true;
        return jsonResponse(
          429,
          {
            meta: { requestId: "req_429" },
            error: {
              status: 429,
              title: "Too Many Requests",
              detail: "Slow down",
              type: "https://unkey.com/docs/errors/unkey/application/too_many_requests",
            },
          },
          { "retry-after": "1" },
        );
      }
      return ok();
    });
    const { user } = renderBulk(1);
    await user.click(screen.getByRole("button", { name: "Enable" }));
    await user.click(within(dialog()).getByRole("button", { name: "Enable 1 key" }));
    expect(await screen.findByText(/rate limited: the API asked to wait/)).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Enabled 1 key" })).toBeInTheDocument();
    expect(requests).toHaveLength(2);
  });

  test("closing the confirmation changes nothing, and focus returns to the button that opened it", async () => {
    const requests = stubChanges(() => ok());
    const { user } = renderBulk(2);
    await user.click(screen.getByRole("button", { name: "Disable" }));
    await user.click(within(dialog()).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(requests).toEqual([]);
    expect(screen.getByRole("button", { name: "Disable" })).toHaveFocus();
  });
});
