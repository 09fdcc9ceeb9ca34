import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, onTestFinished, test, vi } from "vitest";
import { AccessDialog } from "@/features/key-actions/components/access-dialog";
import { DeleteDialog } from "@/features/key-actions/components/delete-dialog";
import { EditDialog } from "@/features/key-actions/components/edit-dialog";
import { forgetRefusals } from "@/features/key-actions/refusals";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { fakeCache, findEntry, forbidden, ok, renderError, stubApi, WORKSPACE } from "./key-actions-harness";

/** The third bug bash's faults in the key forms (issue 42), each as a user meets it. */

const queryClient = freshQueryClientPerTest();
const connection: Connection = {
  baseUrl: "https://api.example.com",
  apiKey: "ks_root_S3cretK3yValue9876543210",
  apiId: "api_1",
};
const NOW = Date.UTC(2026, 10, 28, 12);
const KEY: Key = {
  keyId: "key_1",
  name: "Worker",
  enabled: true,
  expires: NOW + 10 * 86_400_000,
  permissions: ["documents.read"],
  roles: [],
};

afterEach(() => forgetRefusals());

function wrap(children: ReactNode) {
  return <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>;
}

const updates = (sent: { path: string; body: Record<string, unknown> }[]) =>
  sent.filter((call) => call.path === "/v2/keys.updateKey").map((call) => call.body);

function edit(key: Key, props: { cache?: ReturnType<typeof fakeCache> } = {}) {
  const onClose = vi.fn();
  const dialog = (apiKey: Key) =>
    wrap(
      <EditDialog
        connection={connection}
        apiKey={apiKey}
        cache={props.cache ?? fakeCache()}
        renderError={renderError}
        onClose={onClose}
      />,
    );
  const { rerender } = render(dialog(key));
  // The page behind the form follows another tab's change: the form gets the key as it is now.
  return { onClose, changedElsewhere: (now: Key) => rerender(dialog(now)) };
}

describe("a key changed under its open form (another tab)", () => {
  test("Edit says what changed, still shows what it was, and Save does not send it back", async () => {
    const user = userEvent.setup();
    const sent = stubApi({ ...WORKSPACE, "/v2/keys.updateKey": ok({}) });
    const { onClose, changedElsewhere } = edit(KEY);
    expect(screen.queryByRole("alert")).toBeNull();
    changedElsewhere({ ...KEY, enabled: false });
    expect(screen.getByRole("alert")).toHaveTextContent(
      "This key changed since this form opened (in another tab, or by someone else): it is now disabled. The form still shows what it was.",
    );
    expect(screen.getByRole("checkbox", { name: "Enabled" })).toBeChecked();
    await user.clear(screen.getByLabelText("Name"));
    await user.type(screen.getByLabelText("Name"), "Renamed");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    // The other tab's Disable stands: only the name is sent.
    expect(updates(sent)).toEqual([{ keyId: "key_1", name: "Renamed" }]);
  });

  test("Take the new values shows the key as it is now, and the note goes", async () => {
    const user = userEvent.setup();
    stubApi(WORKSPACE);
    const { changedElsewhere } = edit(KEY);
    changedElsewhere({ ...KEY, enabled: false, name: "Billing" });
    expect(screen.getByRole("alert")).toHaveTextContent("its name is now “Billing” and it is now disabled");
    await user.click(screen.getByRole("button", { name: "Take the new values" }));
    expect(screen.getByRole("checkbox", { name: "Enabled" })).not.toBeChecked();
    expect(screen.getByLabelText("Name")).toHaveValue("Billing");
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Nothing changed.")).toBeInTheDocument();
  });

  test("a field changed both here and there is sent only when Save is pressed again, having said so", async () => {
    const user = userEvent.setup();
    const sent = stubApi({ ...WORKSPACE, "/v2/keys.updateKey": ok({}) });
    const { onClose, changedElsewhere } = edit(KEY);
    await user.clear(screen.getByLabelText("Name"));
    await user.type(screen.getByLabelText("Name"), "Mine");
    changedElsewhere({ ...KEY, name: "Theirs" });
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText(/^Changed both here and elsewhere/)).toHaveTextContent(
      "Changed both here and elsewhere since this form opened: its name is now “Theirs”. Save again to replace that with what this form has, or take the new values.",
    );
    expect(updates(sent)).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(updates(sent)).toEqual([{ keyId: "key_1", name: "Mine" }]);
  });

  test("Permissions and roles says its permissions changed; picks made on the old list are not sent unasked", async () => {
    const user = userEvent.setup();
    const sent = stubApi({ ...WORKSPACE, "/v2/keys.addPermissions": ok({}), "/v2/keys.setPermissions": ok({}) });
    const dialog = (apiKey: Key) =>
      wrap(
        <AccessDialog
          connection={connection}
          apiKey={apiKey}
          cache={fakeCache()}
          renderError={renderError}
          onClose={vi.fn()}
        />,
      );
    const { rerender } = render(dialog(KEY));
    await user.click(await findEntry("Permissions", "documents.write"));
    rerender(dialog({ ...KEY, permissions: ["documents.read", "billing.read"] }));
    expect(screen.getByRole("alert")).toHaveTextContent("its permissions changed");
    await user.click(screen.getByRole("button", { name: "Save permissions and roles" }));
    expect(await screen.findByText(/^Changed both here and elsewhere/)).toBeInTheDocument();
    expect(sent.filter((call) => call.path.startsWith("/v2/keys."))).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Take the new values" }));
    expect(screen.getByRole("list", { name: "Permissions picked" })).toHaveTextContent(
      /^documents\.readRemovebilling\.readRemove$/,
    );
    expect(await findEntry("Permissions", "documents.write")).toHaveAttribute("aria-selected", "false");
  });
});

describe("offline", () => {
  test("a form says so at once, and Save waits for the connection", () => {
    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    stubApi(WORKSPACE);
    edit(KEY);
    const dialog = screen.getByRole("dialog", { name: "Edit key" });
    expect(within(dialog).getByRole("status")).toHaveTextContent(
      "You are offline: nothing can be changed until the connection is back.",
    );
    expect(within(dialog).getByRole("button", { name: "Save changes" })).toBeDisabled();
    online.mockReturnValue(true);
    fireEvent(window, new Event("online"));
    expect(within(dialog).queryByText(/You are offline/)).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Save changes" })).toBeEnabled();
  });

  test("a save whose request fails says so at once, not once the key's reload can go out", async () => {
    const user = userEvent.setup();
    stubApi(WORKSPACE);
    const cache = fakeCache();
    // The key reloaded after a change waits for the connection, as a query does while the browser is offline.
    vi.mocked(cache.refreshKey).mockReturnValue(new Promise(() => undefined));
    const fetchStub = globalThis.fetch;
    vi.stubGlobal(
      "fetch",
      vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
        (input instanceof Request ? input.url : input.toString()).endsWith("/v2/keys.updateKey")
          ? Promise.reject(new TypeError("Failed to fetch"))
          : fetchStub(input, init),
      ),
    );
    edit(KEY, { cache });
    await user.clear(screen.getByLabelText("Name"));
    await user.type(screen.getByLabelText("Name"), "Renamed");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByRole("alert")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save changes" })).toBeEnabled();
    expect(cache.rollbacks).toBe(1);
  });
});

test("a refused Delete no longer says its permission is known only by trying", async () => {
  const user = userEvent.setup();
  stubApi({
    "/v2/keys.deleteKey": forbidden("Missing one of these permissions: api.*.delete_key or api.api_1.delete_key"),
  });
  render(
    wrap(
      <DeleteDialog
        connection={connection}
        apiKey={KEY}
        cache={fakeCache()}
        renderError={renderError}
        onClose={vi.fn()}
        onDeleted={vi.fn()}
      />,
    ),
  );
  const dialog = screen.getByRole("dialog", { name: "Delete key" });
  expect(dialog).toHaveTextContent("known only by trying");
  await user.type(screen.getByLabelText("Type Worker to confirm"), "Worker");
  await user.click(screen.getByRole("button", { name: "Delete key" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("api.api_1.delete_key");
  expect(dialog).not.toHaveTextContent("known only by trying");
});

describe("Expires", () => {
  function setExpires(text: string, incomplete = false) {
    const input = screen.getByLabelText("Expires");
    Object.defineProperty(input, "validity", { value: { badInput: incomplete }, configurable: true });
    fireEvent.change(input, { target: { value: text } });
    return input;
  }

  test("a date after the service's latest expiry is refused beside the field, in the user's time and UTC", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    onTestFinished(() => void vi.useRealTimers());
    const user = userEvent.setup();
    const sent = stubApi({ ...WORKSPACE, "/v2/keys.updateKey": ok({}) });
    edit(KEY);
    const expires = setExpires("2100-01-02T00:00");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(expires).toHaveAttribute("aria-invalid", "true"));
    expect(expires).toHaveAccessibleDescription(
      "At most 2100-01-01 00:00 here (2100-01-01 00:00 UTC), the latest expiry the service takes Empty: never expires.",
    );
    expect(expires).toHaveAttribute("max", "2100-01-01T00:00");
    expect(updates(sent)).toEqual([]);
  });

  test("a date and time filled in only in part is refused, not read as never expiring", async () => {
    const user = userEvent.setup();
    const sent = stubApi({ ...WORKSPACE, "/v2/keys.updateKey": ok({}) });
    edit(KEY);
    const expires = setExpires("", true);
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(expires).toHaveAttribute("aria-invalid", "true"));
    expect(expires).toHaveAccessibleDescription(/^Fill in the whole date and time, or clear it/);
    expect(updates(sent)).toEqual([]);
  });

  test("a local time the clocks skip is said, never stored an hour off; the time meant is stored as typed", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    process.env.TZ = "Europe/Berlin";
    onTestFinished(() => {
      delete process.env.TZ;
      vi.useRealTimers();
    });
    const user = userEvent.setup();
    const sent = stubApi({ ...WORKSPACE, "/v2/keys.updateKey": ok({}) });
    const { onClose } = edit(KEY);
    const expires = setExpires("2027-03-28T02:30");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(expires).toHaveAttribute("aria-invalid", "true"));
    expect(expires).toHaveAccessibleDescription(
      "02:30 does not exist on 2027-03-28 in Europe/Berlin (the clocks skip it); 03:30 is meant? Empty: never expires.",
    );
    expect(updates(sent)).toEqual([]);
    setExpires("2027-03-28T03:30");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(updates(sent)).toEqual([{ keyId: "key_1", expires: Date.UTC(2027, 2, 28, 1, 30) }]);
  });

  test("a local time the clocks show twice says which of the two it is", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    process.env.TZ = "Europe/Berlin";
    onTestFinished(() => {
      delete process.env.TZ;
      vi.useRealTimers();
    });
    stubApi(WORKSPACE);
    edit(KEY);
    const expires = setExpires("2027-10-31T02:30");
    expect(expires).toHaveAccessibleDescription(
      "02:30 happens twice on 2027-10-31 in Europe/Berlin: this is the first, at UTC+02:00. Empty: never expires.",
    );
  });
});
