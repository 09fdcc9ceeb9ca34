import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, expect, onTestFinished, test, vi } from "vitest";
import { CreateKeyDialog } from "../../../../src/features/key-actions/components/create-key-dialog";
import { DeleteDialog } from "../../../../src/features/key-actions/components/delete-dialog";
import { KeyActions } from "../../../../src/features/key-actions/components/key-actions";
import { forgetRefusals } from "../../../../src/features/key-actions/refusals";
import type { Connection } from "../../../../src/lib/api/transport";
import type { Key } from "../../../../src/lib/contract";
import { clearJournal, journalEntries } from "../../../../src/lib/request-journal";
import { freshQueryClientPerTest } from "../../support/query-tests";
import { fakeCache, forbidden, ok, renderError, stubApi, type Answer } from "./key-actions-harness";

const queryClient = freshQueryClientPerTest();
const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210", apiId: "api_1" };
const SECRET = "sk_TheNewSecretShownOnly0nce42";

afterEach(() => {
  forgetRefusals();
  clearJournal();
});

function wrap(children: ReactNode) {
  return <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>;
}


test("Create key checks meta as it is typed, sends what was filled in, shows the secret once and keeps it nowhere else", async () => {
  const user = userEvent.setup();
  const sent = stubApi({
    "/v2/permissions.listPermissions": ok([{ id: "perm_1", name: "documents.read", slug: "documents.read" }]),
    "/v2/permissions.listRoles": forbidden("Missing one of these permissions: rbac.*.read_role"),
    "/v2/keys.createKey": ok({ keyId: "key_new", key: SECRET }),
  });
  const cache = fakeCache();
  const onClose = vi.fn();
  // Every state the mutation cache ever holds, not only what is left at the end: a mutation reset (or collected)
  // after its secret went through its data or variables would otherwise pass unseen.
  const mutationStates: string[] = [];
  const unsubscribe = queryClient()
    .getMutationCache()
    .subscribe((event) => {
      if (event.mutation !== undefined) mutationStates.push(JSON.stringify([event.mutation.state.data, event.mutation.state.variables]));
    });
  onTestFinished(unsubscribe);
  render(wrap(<CreateKeyDialog connection={connection} cache={cache} renderError={renderError} onClose={onClose} />));

  const dialog = screen.getByRole("dialog", { name: "Create key" });
  expect(screen.getByLabelText("API id")).toHaveValue("api_1");
  await user.type(screen.getByLabelText("Name"), "Worker");
  await user.type(screen.getByLabelText("Credits"), "10");
  await user.click(await screen.findByRole("checkbox", { name: "documents.read" }));
  await user.type(screen.getByLabelText("Meta (JSON)"), "[[1");
  expect(screen.getByLabelText("Meta (JSON)")).toHaveAttribute("aria-invalid", "true");
  expect(await screen.findByText("This root key may not list the workspace’s; type the names.")).toBeInTheDocument();
  await user.clear(screen.getByLabelText("Meta (JSON)"));
  await user.type(screen.getByLabelText("Meta (JSON)"), '{{"plan": "pro"}');
  expect(screen.getByLabelText("Meta (JSON)")).toHaveAttribute("aria-invalid", "false");
  await user.click(screen.getByRole("button", { name: "Create key" }));

  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
  expect(screen.getByText(/it will not be shown again/)).toBeInTheDocument();
  expect(sent.find((call) => call.path === "/v2/keys.createKey")?.body).toEqual({
    apiId: "api_1",
    enabled: true,
    name: "Worker",
    credits: { remaining: 10 },
    permissions: ["documents.read"],
    meta: { plan: "pro" },
  });
  expect(cache.keyCreated).toHaveBeenCalledWith("key_new", "api_1");
  // Neither the query cache, the mutation cache nor the journal holds the secret.
  const caches = JSON.stringify([
    queryClient().getQueryCache().getAll().map((query) => query.state),
    queryClient().getMutationCache().getAll().map((mutation) => ({ data: mutation.state.data, variables: mutation.state.variables })),
    journalEntries(),
  ]);
  expect(caches).not.toContain(SECRET);
  expect(mutationStates.length).toBeGreaterThan(0);
  expect(mutationStates.filter((state) => state.includes(SECRET))).toEqual([]);
  expect(dialog).toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Done" }));
  expect(onClose).toHaveBeenCalled();
});

/**
 * Escape as a browser handles it (happy-dom does not): the keydown, then a cancelable `cancel` on the open dialog,
 * which closes it unless one of them was prevented.
 */
function pressEscape(dialog: HTMLElement) {
  if (!(dialog instanceof HTMLDialogElement)) throw new Error("not a dialog");
  if (!fireEvent.keyDown(dialog, { key: "Escape" })) return;
  if (fireEvent(dialog, new Event("cancel", { cancelable: true }))) dialog.close();
}

test("while the new key is on its way, Escape and Close leave the dialog open; the secret shows as it comes, before the cache work", async () => {
  const user = userEvent.setup();
  let answer: (answer: Answer) => void = () => undefined;
  stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    "/v2/keys.createKey": () => new Promise<Answer>((resolve) => (answer = resolve)),
  });
  const cache = fakeCache();
  // Reloading the new key can take long (a getKey of up to 15 s): the secret must not wait for it.
  vi.mocked(cache.keyCreated).mockReturnValue(new Promise<void>(() => undefined));
  const onClose = vi.fn();
  render(wrap(<CreateKeyDialog connection={connection} cache={cache} renderError={renderError} onClose={onClose} />));
  const dialog = screen.getByRole("dialog", { name: "Create key" });
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByRole("button", { name: "Creating…" })).toBeDisabled();

  const close = screen.getByRole("button", { name: "Close" });
  expect(close).toBeDisabled();
  expect(close).toHaveAccessibleDescription(/shown only once/);
  await user.click(close);
  pressEscape(dialog);
  expect(dialog).toHaveProperty("open", true);
  expect(onClose).not.toHaveBeenCalled();

  answer(ok({ keyId: "key_new", key: SECRET }));
  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
  expect(cache.keyCreated).toHaveBeenCalledWith("key_new", "api_1");
  expect(screen.getByRole("button", { name: "Close" })).toBeEnabled();
  pressEscape(dialog);
  expect(onClose).toHaveBeenCalled();
});

test("Delete asks for the key's name, or its id when it has none", async () => {
  const user = userEvent.setup();
  const sent = stubApi({ "/v2/keys.deleteKey": ok({}) });
  const cache = fakeCache();
  const onDeleted = vi.fn();
  const key: Key = { keyId: "key_1" };
  render(wrap(<DeleteDialog connection={connection} apiKey={key} cache={cache} renderError={renderError} onClose={vi.fn()} onDeleted={onDeleted} />));
  const confirm = screen.getByRole("button", { name: "Delete key" });
  expect(confirm).toBeDisabled();
  await user.type(screen.getByLabelText("Type key_1 to confirm"), "key_");
  expect(confirm).toBeDisabled();
  await user.type(screen.getByLabelText("Type key_1 to confirm"), "1");
  await user.click(confirm);
  await waitFor(() => expect(onDeleted).toHaveBeenCalled());
  expect(sent).toEqual([{ path: "/v2/keys.deleteKey", body: { keyId: "key_1" } }]);
  expect(cache.keyDeleted).toHaveBeenCalledWith("key_1");
});

test("Disable shows at once, is rolled back with the service's words when refused, and the permission is then said before any form", async () => {
  const user = userEvent.setup();
  stubApi({ "/v2/keys.updateKey": forbidden("Missing one of these permissions: api.*.update_key or api.api_1.update_key") });
  const cache = fakeCache();
  const key: Key = { keyId: "key_1", name: "Worker", enabled: true };
  render(
    wrap(
      <KeyActions connection={connection} apiKey={key} cache={cache} now={0} refusedAs={null} renderError={renderError} keyHref={(id) => `/keys/${id}`} onDeleted={vi.fn()} />,
    ),
  );
  await user.click(screen.getByRole("button", { name: "Disable" }));
  expect(cache.patchKey).toHaveBeenCalledWith("key_1", { enabled: false });
  expect(await screen.findByRole("alert")).toHaveTextContent("Missing one of these permissions: api.*.update_key");
  expect(cache.rollbacks).toBe(1);
  expect(screen.getByRole("note")).toHaveTextContent("Changing this key needs api.*.update_key");
  expect(screen.getByRole("button", { name: "Edit" })).toBeDisabled();
  expect(screen.getByRole("button", { name: "Credits" })).toBeDisabled();
  // Reroll and Delete need other permissions, not known to be missing: still offered.
  expect(screen.getByRole("button", { name: "Delete" })).toBeEnabled();
});

test("the verdict's fixes: a disabled key out of credits offers Enable and Add credits, prefilled with its refill", async () => {
  const user = userEvent.setup();
  const sent = stubApi({ "/v2/keys.updateKey": ok({}) });
  const key: Key = { keyId: "key_1", enabled: false, credits: { remaining: 0, refill: { interval: "daily", amount: 25 } } };
  render(
    wrap(
      <KeyActions connection={connection} apiKey={key} cache={fakeCache()} now={0} refusedAs={null} renderError={renderError} keyHref={(id) => `/keys/${id}`} onDeleted={vi.fn()} />,
    ),
  );
  const fixes = screen.getByRole("group", { name: "Fix" });
  expect(fixes).toHaveTextContent("Enable");
  await user.click(screen.getByRole("button", { name: "Add credits" }));
  // The probe first: enabled set to what it is, which changes nothing.
  expect(await screen.findByRole("dialog", { name: "Credits" })).toBeInTheDocument();
  expect(sent[0]).toEqual({ path: "/v2/keys.updateKey", body: { keyId: "key_1", enabled: false } });
  expect(screen.getByRole("radio", { name: "Add" })).toBeChecked();
  expect(screen.getByRole("spinbutton", { name: "Credits" })).toHaveValue(25);
});

const keyActions = (key: Key) => (
  <KeyActions connection={connection} apiKey={key} cache={fakeCache()} now={0} refusedAs={null} renderError={renderError} keyHref={(id) => `/keys/${id}`} onDeleted={vi.fn()} />
);
const notFound = (type: string, detail: string): Answer => ({
  status: 404,
  body: { meta: { requestId: "req_3" }, error: { status: 404, title: "Not Found", detail, type: `https://unkey.com/docs/errors/unkey/data/${type}` } },
});

test("a monthly refill is sent with its day of the month, today's (UTC) unless changed, as the service requires", async () => {
  const user = userEvent.setup();
  const sent = stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    "/v2/keys.createKey": (body) => {
      const refill = (body.credits as { refill?: { interval: string; refillDay?: number } } | undefined)?.refill;
      if (refill?.interval === "monthly" && refill.refillDay === undefined)
        return { status: 400, body: { meta: { requestId: "req_4" }, error: { status: 400, title: "Bad Request", detail: "refillDay must be provided when the interval is monthly", type: "https://unkey.com/docs/errors/unkey/application/invalid_input" } } };
      return ok({ keyId: "key_new", key: SECRET });
    },
  });
  render(wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />));

  await user.type(screen.getByLabelText("Credits"), "100");
  expect(screen.queryByLabelText("Refill day")).not.toBeInTheDocument();
  await user.selectOptions(screen.getByLabelText("Refill"), "monthly");
  await user.type(screen.getByLabelText("Refill amount"), "100");
  expect(screen.getByLabelText("Refill day")).toHaveValue(new Date().getUTCDate());
  await user.clear(screen.getByLabelText("Refill day"));
  await user.type(screen.getByLabelText("Refill day"), "32");
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("day of the month, 1 to 31");
  await user.clear(screen.getByLabelText("Refill day"));
  await user.type(screen.getByLabelText("Refill day"), "15");
  await user.click(screen.getByRole("button", { name: "Create key" }));

  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
  expect(sent.find((call) => call.path === "/v2/keys.createKey")?.body.credits).toEqual({ remaining: 100, refill: { interval: "monthly", amount: 100, refillDay: 15 } });
});

test("roles are picked from the workspace's only (a key operation never creates one); new permission names may still be typed", async () => {
  stubApi({
    "/v2/permissions.listPermissions": ok([{ id: "perm_1", name: "documents.read", slug: "documents.read" }]),
    "/v2/permissions.listRoles": ok([{ id: "role_1", name: "admin" }]),
  });
  render(wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />));

  expect(await screen.findByRole("checkbox", { name: "admin" })).toBeInTheDocument();
  expect(await screen.findByRole("checkbox", { name: "documents.read" })).toBeInTheDocument();
  expect(screen.getByRole("textbox", { name: "Other permissions (comma separated)" })).toBeInTheDocument();
  expect(screen.queryByRole("textbox", { name: /roles/i })).not.toBeInTheDocument();
  expect(screen.getByText(/only be given roles that already exist in the workspace/)).toBeInTheDocument();
});

test("createKey's ambiguous 404 for its API says both readings in the form and does not hold back any key's Reroll", async () => {
  const user = userEvent.setup();
  stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    "/v2/keys.createKey": notFound("api_not_found", "The specified API was not found."),
  });
  const { unmount } = render(wrap(<CreateKeyDialog connection={{ ...connection, apiId: "api_typo" }} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />));
  await user.click(screen.getByRole("button", { name: "Create key" }));

  expect(await screen.findByRole("alert")).toHaveTextContent("The specified API was not found.");
  const note = screen.getByRole("note");
  expect(note).toHaveTextContent("Either that API id is wrong");
  expect(note).toHaveTextContent("api.*.create_key");
  expect(note).toHaveTextContent("api_typo");
  unmount();

  render(wrap(keyActions({ keyId: "key_1", enabled: true })));
  expect(screen.getByRole("button", { name: "Reroll" })).toBeEnabled();
  expect(screen.queryByRole("note")).not.toBeInTheDocument();
});

test("a refusal is forgotten once the same action goes through (the root key was granted it since)", async () => {
  const user = userEvent.setup();
  let granted = false;
  stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    "/v2/keys.createKey": () => (granted ? ok({ keyId: "key_new", key: SECRET }) : forbidden("Missing one of these permissions: api.*.create_key")),
  });
  render(wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />));
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByRole("note")).toHaveTextContent("Creating a key needs api.*.create_key");

  granted = true;
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
  render(wrap(keyActions({ keyId: "key_1", enabled: true })));
  expect(screen.getByRole("button", { name: "Reroll" })).toBeEnabled();
  expect(screen.queryByRole("note")).not.toBeInTheDocument();
});
