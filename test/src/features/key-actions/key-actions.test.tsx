import { onlineManager, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState, type ReactNode } from "react";
import { afterEach, expect, onTestFinished, test, vi } from "vitest";
import { CreateKeyDialog } from "@/features/key-actions/components/create-key-dialog";
import { DeleteDialog } from "@/features/key-actions/components/delete-dialog";
import { KeyActions } from "@/features/key-actions/components/key-actions";
import { RerollDialog } from "@/features/key-actions/components/reroll-dialog";
import { forgetRefusals } from "@/features/key-actions/refusals";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { clearJournal, journalEntries } from "@/lib/request-journal";
import { held } from "../../../support/held";
import { freshQueryClientPerTest } from "../../support/query-tests";
import {
  fakeCache,
  findEntry,
  forbidden,
  ok,
  pressEscape,
  renderError,
  stubApi,
  WORKSPACE,
  type Answer,
} from "./key-actions-harness";

const queryClient = freshQueryClientPerTest();
const connection: Connection = {
  baseUrl: "https://api.example.com",
  apiKey: "ks_root_S3cretK3yValue9876543210",
  apiId: "api_1",
};
const SECRET = "sk_TheNewSecretShownOnly0nce42";

afterEach(() => {
  forgetRefusals();
  clearJournal();
});

/** What both services answer the dashboard's createKey probe (a refill without credits.remaining) once create_key is checked. */
const REFILL_RULE: Answer = {
  status: 400,
  body: {
    meta: { requestId: "req_5" },
    error: {
      status: 400,
      title: "Bad Request",
      detail: "`credits.remaining` must be provided when `credits.refill` is set.",
      type: "https://unkey.com/docs/errors/unkey/application/invalid_input",
      errors: [],
    },
  },
};
const isCreateProbe = (body: Record<string, unknown>) =>
  (body.credits as { remaining?: unknown } | undefined)?.remaining === null;

/** createKey as a service with create_key answers it: the probe refused for its refill, a request by `answer`. */
function createKeyAllowed(answer: (body: Record<string, unknown>) => Answer | Promise<Answer>) {
  return {
    "/v2/apis.getApi": (body: Record<string, unknown>) => ok({ id: body.apiId, name: "Payments" }),
    "/v2/keys.createKey": (body: Record<string, unknown>) => (isCreateProbe(body) ? REFILL_RULE : answer(body)),
  };
}

function wrap(children: ReactNode) {
  return <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>;
}

test("a list of the workspace's names that failed for another reason than a permission is not said to be one", async () => {
  stubApi({
    // The root key disabled since the page opened: the real service's 403, not a missing permission.
    "/v2/permissions.listPermissions": {
      status: 403,
      body: {
        meta: { requestId: "req_9" },
        error: {
          status: 403,
          title: "Key is disabled",
          detail: "The root key is disabled",
          type: "https://unkey.com/docs/errors/unkey/authorization/key_disabled",
        },
      },
    },
    "/v2/permissions.listRoles": {
      status: 503,
      body: {
        meta: { requestId: "req_8" },
        error: {
          status: 503,
          title: "Service Unavailable",
          detail: "down",
          type: "https://unkey.com/docs/errors/unkey/application/service_unavailable",
        },
      },
    },
    ...createKeyAllowed(() => ok({ keyId: "key_new", key: SECRET })),
  });
  render(
    wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );
  expect(
    await screen.findByText(
      "The workspace’s permissions could not be listed (the API answered 403 Key is disabled); type the names.",
    ),
  ).toBeInTheDocument();
  expect(
    await screen.findByText(
      "The workspace’s roles could not be listed (the API answered 503 Service Unavailable); type the names.",
    ),
  ).toBeInTheDocument();
  expect(screen.queryByText(/may not list/)).toBeNull();
});

test("Create key checks meta as it is typed, sends what was filled in, shows the secret once and keeps it nowhere else", async () => {
  const user = userEvent.setup();
  const sent = stubApi({
    "/v2/permissions.listPermissions": ok([{ id: "perm_1", name: "documents.read", slug: "documents.read" }]),
    "/v2/permissions.listRoles": forbidden("Missing one of these permissions: rbac.*.read_role"),
    ...createKeyAllowed(() => ok({ keyId: "key_new", key: SECRET })),
  });
  const cache = fakeCache();
  const onClose = vi.fn();
  // Every state the mutation cache ever holds, not only what is left at the end: a mutation reset (or collected)
  // after its secret went through its data or variables would otherwise pass unseen.
  const mutationStates: string[] = [];
  const unsubscribe = queryClient()
    .getMutationCache()
    .subscribe((event) => {
      if (event.mutation !== undefined)
        mutationStates.push(JSON.stringify([event.mutation.state.data, event.mutation.state.variables]));
    });
  onTestFinished(unsubscribe);
  render(wrap(<CreateKeyDialog connection={connection} cache={cache} renderError={renderError} onClose={onClose} />));

  const dialog = screen.getByRole("dialog", { name: "Create key" });
  expect(screen.getByLabelText("API id")).toHaveValue("api_1");
  await user.type(screen.getByLabelText("Name"), "Worker");
  await user.type(screen.getByLabelText("Credits"), "10");
  await user.click(await findEntry("Permissions", "documents.read"));
  await user.type(screen.getByLabelText("Meta (JSON)"), "[[1");
  expect(screen.getByLabelText("Meta (JSON)")).toHaveAttribute("aria-invalid", "true");
  expect(
    await screen.findByText("This root key may not list the workspace’s roles; type the names."),
  ).toBeInTheDocument();
  await user.clear(screen.getByLabelText("Meta (JSON)"));
  await user.type(screen.getByLabelText("Meta (JSON)"), '{{"plan": "pro"}');
  expect(screen.getByLabelText("Meta (JSON)")).toHaveAttribute("aria-invalid", "false");
  await user.click(screen.getByRole("button", { name: "Create key" }));

  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
  expect(screen.getByText(/it will not be shown again/)).toBeInTheDocument();
  expect(sent.findLast((call) => call.path === "/v2/keys.createKey")?.body).toEqual({
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
    queryClient()
      .getQueryCache()
      .getAll()
      .map((query) => query.state),
    queryClient()
      .getMutationCache()
      .getAll()
      .map((mutation) => ({ data: mutation.state.data, variables: mutation.state.variables })),
    journalEntries(),
  ]);
  expect(caches).not.toContain(SECRET);
  expect(mutationStates.length).toBeGreaterThan(0);
  expect(mutationStates.filter((state) => state.includes(SECRET))).toEqual([]);
  expect(dialog).toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Done" }));
  expect(onClose).toHaveBeenCalled();
});

test("while the new key is on its way, Escape and Close leave the dialog open; the secret shows as it comes, before the cache work", async () => {
  const user = userEvent.setup();
  let answer: (answer: Answer) => void = () => undefined;
  stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    ...createKeyAllowed(() => new Promise<Answer>((resolve) => (answer = resolve))),
  });
  const cache = fakeCache();
  // Reloading the new key can take long (a getKey of up to 15 s): the secret must not wait for it.
  vi.mocked(cache.keyCreated).mockReturnValue(new Promise<void>(() => undefined));
  const onClose = vi.fn();
  render(wrap(<CreateKeyDialog connection={connection} cache={cache} renderError={renderError} onClose={onClose} />));
  const dialog = screen.getByRole("dialog", { name: "Create key" });
  expect(await screen.findByText("This root key may create keys in it.")).toBeInTheDocument();
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

test("two clicks on Create key that the browser delivers before the page renders again make one key, not two", async () => {
  // A busy main thread queues a double click's two clicks: both run before the mutation's pending state renders.
  let answer: (answer: Answer) => void = () => undefined;
  const sent = stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    ...createKeyAllowed(() => new Promise<Answer>((resolve) => (answer = resolve))),
  });
  render(
    wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );
  expect(await screen.findByText("This root key may create keys in it.")).toBeInTheDocument();
  const create = screen.getByRole("button", { name: "Create key" });
  fireEvent.click(create);
  fireEvent.click(create);
  expect(await screen.findByRole("button", { name: "Creating…" })).toBeDisabled();
  answer(ok({ keyId: "key_new", key: SECRET }));
  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
  expect(sent.filter((call) => call.path === "/v2/keys.createKey" && !isCreateProbe(call.body))).toHaveLength(1);
});

test("a double click on Reroll key rerolls once, and the secret shown is that new key's", async () => {
  const answer = held();
  const sent = stubApi({
    "/v2/keys.rerollKey": () => answer.released.then(() => ok({ keyId: "key_new", key: SECRET })),
  });
  render(
    wrap(
      <RerollDialog
        connection={connection}
        apiKey={{ keyId: "key_1" }}
        cache={fakeCache()}
        renderError={renderError}
        onClose={vi.fn()}
        keyHref={(id) => `/keys/${id}`}
      />,
    ),
  );
  const reroll = screen.getByRole("button", { name: "Reroll key" });
  // Both clicks before React renders again, as Chromium may run them.
  fireEvent.click(reroll);
  fireEvent.click(reroll);
  answer.release();
  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
  expect(sent.map((call) => call.path)).toEqual(["/v2/keys.rerollKey"]);
});

test("Reroll says the new key keeps the old one's expiry, and warns when that expiry has passed", () => {
  const HOUR = 3_600_000;
  const reroll = (apiKey: Key) =>
    render(
      wrap(
        <RerollDialog
          connection={connection}
          apiKey={apiKey}
          cache={fakeCache()}
          renderError={renderError}
          onClose={vi.fn()}
          keyHref={(id) => `/keys/${id}`}
        />,
      ),
    );

  // Rerolled before with its old secret stopped at once: the real service copies that expiry to the new key.
  const expired = reroll({ keyId: "key_1", expires: Date.now() - 2 * HOUR });
  const warning = screen.getByRole("note");
  expect(warning).toHaveTextContent(/^This key expired 2 hours ago \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)\./);
  expect(warning).toHaveTextContent("refuse it at once as EXPIRED");
  expired.unmount();

  const expiring = reroll({ keyId: "key_2", expires: Date.now() + 3 * 24 * HOUR + HOUR });
  expect(screen.queryByRole("note")).toBeNull();
  expect(screen.getByText(/^The new key keeps this key.s expiry: it stops working in 3 days \(/)).toBeInTheDocument();
  expiring.unmount();

  reroll({ keyId: "key_3" });
  expect(screen.queryByText(/expir/)).toBeNull();
});

test("Reroll says a key that expired this very moment (its old secret stopped at once) expired just now, not in under a minute", () => {
  const now = Date.now();
  const clock = vi.spyOn(Date, "now").mockReturnValue(now);
  onTestFinished(() => clock.mockRestore());
  render(
    wrap(
      <RerollDialog
        connection={connection}
        apiKey={{ keyId: "key_1", expires: now }}
        cache={fakeCache()}
        renderError={renderError}
        onClose={vi.fn()}
        keyHref={(id) => `/keys/${id}`}
      />,
    ),
  );
  expect(screen.getByRole("note")).toHaveTextContent(/^This key expired just now \(/);
});

test("Delete asks for the key's name, or its id when it has none", async () => {
  const user = userEvent.setup();
  const sent = stubApi({ "/v2/keys.deleteKey": ok({}) });
  const cache = fakeCache();
  const onDeleted = vi.fn();
  const key: Key = { keyId: "key_1" };
  render(
    wrap(
      <DeleteDialog
        connection={connection}
        apiKey={key}
        cache={cache}
        renderError={renderError}
        onClose={vi.fn()}
        onDeleted={onDeleted}
      />,
    ),
  );
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

test("while a delete is under way, Escape and Close leave its dialog open, so the page is left when the key is gone", async () => {
  const user = userEvent.setup();
  const answer = held();
  stubApi({ "/v2/keys.deleteKey": () => answer.released.then(() => ok({})) });
  const onDeleted = vi.fn();
  render(
    wrap(
      <KeyActions
        connection={connection}
        listedIn="api_1"
        apiKey={{ keyId: "key_1", name: "Worker", enabled: true }}
        cache={fakeCache()}
        now={0}
        refusedAs={null}
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={onDeleted}
      />,
    ),
  );
  await user.click(screen.getByRole("button", { name: "Delete" }));
  const dialog = await screen.findByRole("dialog", { name: "Delete key" });
  await user.type(screen.getByLabelText("Type Worker to confirm"), "Worker");
  await user.click(screen.getByRole("button", { name: "Delete key" }));
  expect(await screen.findByRole("button", { name: "Deleting…" })).toBeDisabled();

  const close = within(dialog).getByRole("button", { name: "Close" });
  expect(close).toBeDisabled();
  expect(close).toHaveAccessibleDescription(/until it comes/);
  pressEscape(dialog);
  expect(dialog).toHaveProperty("open", true);

  answer.release();
  await waitFor(() => expect(onDeleted).toHaveBeenCalled());
});

test("Disable shows at once, is rolled back with the service's words when refused, and the permission is then said before any form", async () => {
  const user = userEvent.setup();
  stubApi({
    "/v2/keys.updateKey": forbidden("Missing one of these permissions: api.*.update_key or api.api_1.update_key"),
  });
  const cache = fakeCache();
  const key: Key = { keyId: "key_1", name: "Worker", enabled: true };
  render(
    wrap(
      <KeyActions
        connection={connection}
        listedIn={connection.apiId}
        apiKey={key}
        cache={cache}
        now={0}
        refusedAs={null}
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={vi.fn()}
      />,
    ),
  );
  await user.click(screen.getByRole("button", { name: "Disable" }));
  expect(cache.patchKey).toHaveBeenCalledWith("key_1", { enabled: false });
  // The service's words, said once: in the note above the buttons, not again in a panel below them (issue 42).
  expect(await screen.findByRole("note")).toHaveTextContent("Missing one of these permissions: api.*.update_key");
  expect(screen.queryByRole("alert")).toBeNull();
  expect(cache.rollbacks).toBe(1);
  expect(screen.getByRole("note")).toHaveTextContent("Changing this key needs api.*.update_key");
  // The button it disabled had the focus: it goes on to the note's Check again, which the note describes.
  expect(screen.getByRole("button", { name: "Granted since? Check again" })).toHaveFocus();
  expect(screen.getByRole("button", { name: "Granted since? Check again" })).toHaveAccessibleDescription(
    /^Changing this key needs/,
  );
  expect(screen.getByRole("button", { name: "Edit" })).toBeDisabled();
  expect(screen.getByRole("button", { name: "Credits" })).toBeDisabled();
  // Reroll and Delete need other permissions, not known to be missing: still offered.
  expect(screen.getByRole("button", { name: "Delete" })).toBeEnabled();
});

test("offline, Disable is sent at once, fails in place and is rolled back: it never shows as made while nothing was sent", async () => {
  const user = userEvent.setup();
  onlineManager.setOnline(false);
  onTestFinished(() => onlineManager.setOnline(true));
  const fetchMock = vi
    .fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>()
    .mockRejectedValue(new TypeError("Failed to fetch"));
  vi.stubGlobal("fetch", fetchMock);
  const cache = fakeCache();
  const key: Key = { keyId: "key_1", name: "Worker", enabled: true };
  render(
    wrap(
      <KeyActions
        connection={connection}
        listedIn={connection.apiId}
        apiKey={key}
        cache={cache}
        now={0}
        refusedAs={null}
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={vi.fn()}
      />,
    ),
  );
  await user.click(screen.getByRole("button", { name: "Disable" }));
  expect(await screen.findByRole("alert")).toBeInTheDocument();
  const changes = fetchMock.mock.calls.filter(
    ([, init]) => typeof init?.body === "string" && init.body.includes('"enabled":false'),
  );
  expect(changes).toHaveLength(1);
  expect(cache.rollbacks).toBe(1);
});

/** KeyActions over a key that its cache's patches change, as the key's page shows it. */
function PatchedKeyActions({ initial }: { initial: Key }) {
  const [key, setKey] = useState(initial);
  const [now] = useState(() => Date.now());
  const [cache] = useState(() => ({
    ...fakeCache(),
    patchKey: (_keyId: string, patch: Partial<Key>) => {
      setKey((shown) => ({ ...shown, ...patch }));
      return () => setKey(initial);
    },
  }));
  return (
    <KeyActions
      connection={connection}
      listedIn={connection.apiId}
      apiKey={key}
      cache={cache}
      now={now}
      refusedAs={null}
      renderError={renderError}
      keyHref={(id) => `/keys/${id}`}
      onDeleted={vi.fn()}
    />
  );
}

test("Disable, Enable and Remove expiry, which each remove their own button, leave the keyboard focus on what comes next, not on the page's start", async () => {
  const user = userEvent.setup();
  let answer = held();
  stubApi({ "/v2/keys.updateKey": () => answer.released.then(() => ok({})) });
  render(
    wrap(
      <PatchedKeyActions initial={{ keyId: "key_1", name: "Worker", enabled: true, expires: Date.now() - 60_000 }} />,
    ),
  );

  screen.getByRole("button", { name: "Disable" }).focus();
  await user.keyboard("{Enter}");
  answer.release();
  // The button that undoes it, once the service has answered.
  await waitFor(() => expect(screen.getByRole("button", { name: "Enable" })).toHaveFocus());

  answer = held();
  await user.keyboard("{Enter}");
  answer.release();
  await waitFor(() => expect(screen.getByRole("button", { name: "Disable" })).toHaveFocus());

  answer = held();
  screen.getByRole("button", { name: "Remove expiry" }).focus();
  await user.keyboard("{Enter}");
  answer.release();
  // The expiry is set again in Edit.
  await waitFor(() => expect(screen.getByRole("button", { name: "Edit" })).toHaveFocus());
  expect(screen.queryByRole("button", { name: "Remove expiry" })).not.toBeInTheDocument();
});

test("a verdict's fix that goes once its dialog made the change (Add credits, Extend expiry) leaves the focus on the dialog's own button", async () => {
  const user = userEvent.setup();
  stubApi({ "/v2/keys.updateKey": ok({}), "/v2/keys.updateCredits": ok({ remaining: 100 }), ...WORKSPACE });
  render(
    wrap(
      <PatchedKeyActions
        initial={{
          keyId: "key_1",
          name: "Worker",
          enabled: true,
          credits: { remaining: 0 },
          expires: Date.now() - 60_000,
        }}
      />,
    ),
  );

  screen.getByRole("button", { name: "Add credits" }).focus();
  await user.keyboard("{Enter}");
  await user.click(await screen.findByRole("button", { name: "Save credits" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  expect(screen.queryByRole("button", { name: "Add credits" })).not.toBeInTheDocument();
  await waitFor(() => expect(screen.getByRole("button", { name: "Credits" })).toHaveFocus());

  screen.getByRole("button", { name: "Extend expiry" }).focus();
  await user.keyboard("{Enter}");
  await user.click(await screen.findByRole("button", { name: "Save changes" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  expect(screen.queryByRole("button", { name: "Extend expiry" })).not.toBeInTheDocument();
  await waitFor(() => expect(screen.getByRole("button", { name: "Edit" })).toHaveFocus());
});

test("the verdict's fixes: a disabled key out of credits offers Enable and Add credits, prefilled with its refill", async () => {
  const user = userEvent.setup();
  const sent = stubApi({
    "/v2/keys.updateKey": {
      status: 400,
      body: {
        meta: { requestId: "req_7" },
        error: {
          status: 400,
          title: "Bad Request",
          detail: "`refillDay` must be provided when the refill interval is `monthly`.",
          type: "https://unkey.com/docs/errors/unkey/application/invalid_input",
          errors: [],
        },
      },
    },
  });
  const key: Key = {
    keyId: "key_1",
    enabled: false,
    credits: { remaining: 0, refill: { interval: "daily", amount: 25 } },
  };
  render(
    wrap(
      <KeyActions
        connection={connection}
        listedIn={connection.apiId}
        apiKey={key}
        cache={fakeCache()}
        now={0}
        refusedAs={null}
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={vi.fn()}
      />,
    ),
  );
  const fixes = screen.getByRole("group", { name: "Fix" });
  expect(fixes).toHaveTextContent("Enable");
  await user.click(screen.getByRole("button", { name: "Add credits" }));
  // The probe first: a monthly refill without its day, which both services refuse after update_key, before writing.
  expect(await screen.findByRole("dialog", { name: "Credits" })).toBeInTheDocument();
  expect(sent).toEqual([
    { path: "/v2/keys.updateKey", body: { keyId: "key_1", credits: { refill: { interval: "monthly", amount: 1 } } } },
  ]);
  expect(screen.getByRole("radio", { name: "Add" })).toBeChecked();
  expect(screen.getByRole("spinbutton", { name: "Credits" })).toHaveValue("25");
});

const keyActions = (key: Key) => (
  <KeyActions
    connection={connection}
    listedIn={connection.apiId}
    apiKey={key}
    cache={fakeCache()}
    now={0}
    refusedAs={null}
    renderError={renderError}
    keyHref={(id) => `/keys/${id}`}
    onDeleted={vi.fn()}
  />
);
const notFound = (type: string, detail: string): Answer => ({
  status: 404,
  body: {
    meta: { requestId: "req_3" },
    error: { status: 404, title: "Not Found", detail, type: `https://unkey.com/docs/errors/unkey/data/${type}` },
  },
});

test("a monthly refill is sent with its day of the month, today's (UTC) unless changed, as the service requires", async () => {
  // The dialog reads today when it opens: a clock pinned a moment before midnight, so no midnight passes in between.
  vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 2, 31, 23, 59, 59, 900) });
  onTestFinished(() => void vi.useRealTimers());
  const user = userEvent.setup();
  const sent = stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    ...createKeyAllowed((body) => {
      const refill = (body.credits as { refill?: { interval: string; refillDay?: number } } | undefined)?.refill;
      if (refill?.interval === "monthly" && refill.refillDay === undefined)
        return {
          status: 400,
          body: {
            meta: { requestId: "req_4" },
            error: {
              status: 400,
              title: "Bad Request",
              detail: "refillDay must be provided when the interval is monthly",
              type: "https://unkey.com/docs/errors/unkey/application/invalid_input",
            },
          },
        };
      return ok({ keyId: "key_new", key: SECRET });
    }),
  });
  render(
    wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );
  expect(await screen.findByText("This root key may create keys in it.")).toBeInTheDocument();

  await user.type(screen.getByLabelText("Credits"), "100");
  expect(screen.queryByLabelText("Refill day")).not.toBeInTheDocument();
  await user.selectOptions(screen.getByLabelText("Refill"), "monthly");
  await user.type(screen.getByLabelText("Refill amount"), "100");
  expect(screen.getByLabelText("Refill day")).toHaveValue("31");
  await user.clear(screen.getByLabelText("Refill day"));
  await user.type(screen.getByLabelText("Refill day"), "32");
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("day of the month, 1 to 31");
  await user.clear(screen.getByLabelText("Refill day"));
  await user.type(screen.getByLabelText("Refill day"), "15");
  await user.click(screen.getByRole("button", { name: "Create key" }));

  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
  expect(sent.findLast((call) => call.path === "/v2/keys.createKey")?.body.credits).toEqual({
    remaining: 100,
    refill: { interval: "monthly", amount: 100, refillDay: 15 },
  });
});

test("roles are picked from the workspace's only (a key operation never creates one); a new permission may be picked as new", async () => {
  const user = userEvent.setup();
  stubApi({
    "/v2/permissions.listPermissions": ok([{ id: "perm_1", name: "documents.read", slug: "documents.read" }]),
    "/v2/permissions.listRoles": ok([{ id: "role_1", name: "admin" }]),
  });
  render(
    wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );

  expect(await findEntry("Roles", "admin")).toBeInTheDocument();
  expect(await findEntry("Permissions", "documents.read")).toBeInTheDocument();
  // Nothing typed where the catalogue is listed: it is searched.
  expect(screen.queryByRole("textbox", { name: /permissions|roles/i })).not.toBeInTheDocument();
  await user.type(screen.getByRole("combobox", { name: "Find permissions" }), "billing.read");
  expect(
    await screen.findByRole("button", { name: "Pick “billing.read”, a new permission (the change creates it)" }),
  ).toBeInTheDocument();
  await user.type(screen.getByRole("combobox", { name: "Find roles" }), "auditor");
  expect(
    within(screen.getByRole("listbox", { name: "Roles found" })).queryByRole("option", { name: "auditor" }),
  ).toBeNull();
  expect(screen.getByText(/only be given roles that already exist in the workspace/)).toBeInTheDocument();
});

test("an API typed that the root key may not read: createKey's 404 says both readings before the form, and is not remembered as a refusal", async () => {
  const user = userEvent.setup();
  const sent = stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    "/v2/apis.getApi": forbidden("Missing one of these permissions: api.*.read_api or api.api_typo.read_api"),
    "/v2/keys.createKey": notFound("api_not_found", "The specified API was not found."),
  });
  const noApi: Connection = { baseUrl: connection.baseUrl, apiKey: connection.apiKey };
  const { unmount } = render(
    wrap(<CreateKeyDialog connection={noApi} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );
  expect(screen.getByLabelText("API id")).toHaveValue("");
  expect(screen.getByText(/The service lists no APIs/)).toBeInTheDocument();
  await user.type(screen.getByLabelText("API id"), "api_typo");
  await user.tab();

  const note = await screen.findByText(/Either that API id is wrong/);
  expect(note).toHaveTextContent("api.*.create_key");
  expect(note).toHaveTextContent("api_typo");
  expect(screen.getByText(/may not read the API/)).toBeInTheDocument();
  // Only the probe was sent: no form was filled, no key asked for.
  expect(sent.filter((call) => call.path === "/v2/keys.createKey").map((call) => isCreateProbe(call.body))).toEqual([
    true,
  ]);
  unmount();

  render(wrap(keyActions({ keyId: "key_1", enabled: true })));
  expect(screen.getByRole("button", { name: "Reroll" })).toBeEnabled();
  expect(screen.queryByRole("note")).not.toBeInTheDocument();
});

test("the connection's API is probed as the dialog opens: a refusal is said before the form, which stays shut until Check again finds it granted", async () => {
  const user = userEvent.setup();
  let granted = false;
  stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    "/v2/apis.getApi": ok({ id: "api_1", name: "Payments" }),
    "/v2/keys.createKey": (body) =>
      !granted
        ? forbidden("Missing one of these permissions: api.*.create_key or api.api_1.create_key")
        : isCreateProbe(body)
          ? REFILL_RULE
          : ok({ keyId: "key_new", key: SECRET }),
  });
  render(
    wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );
  expect(await screen.findByRole("note")).toHaveTextContent(
    "Creating a key in this API needs api.*.create_key (every API) or api.api_1.create_key (this API only)",
  );
  expect(screen.getByText("Payments", { selector: "strong" }).parentElement).toHaveTextContent("Payments (api_1)");
  expect(screen.getByLabelText("Name")).toBeDisabled();
  expect(screen.getByRole("button", { name: "Create key" })).toBeDisabled();

  granted = true;
  await user.click(screen.getByRole("button", { name: "Granted since? Check again" }));
  expect(await screen.findByText("This root key may create keys in it.")).toBeInTheDocument();
  expect(screen.getByLabelText("Name")).toBeEnabled();
  await user.click(screen.getByRole("button", { name: "Create key" }));
  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
});

test("the APIs the dashboard knows are offered with their names; one chosen is checked, and a root key limited to one API is told so for the other", async () => {
  const user = userEvent.setup();
  const names: Record<string, string> = { api_1: "Payments", api_2: "Search" };
  stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    "/v2/apis.getApi": (body) => ok({ id: body.apiId, name: names[String(body.apiId)] }),
    "/v2/keys.createKey": (body) =>
      body.apiId === "api_1" ? REFILL_RULE : notFound("api_not_found", "The specified API was not found."),
  });
  render(
    wrap(
      <CreateKeyDialog
        connection={connection}
        cache={fakeCache()}
        renderError={renderError}
        onClose={vi.fn()}
        suggestedApis={[{ apiId: "api_2", from: "environment “Search”" }]}
      />,
    ),
  );
  const offers = screen.getByRole("list", { name: "APIs this dashboard knows" });
  expect(await screen.findByText("This root key may create keys in it.")).toBeInTheDocument();
  expect(await within(offers).findByRole("button", { name: "Payments" })).toHaveAttribute("aria-pressed", "true");

  await user.click(within(offers).getByRole("button", { name: "api_2" }));
  expect(screen.getByLabelText("API id")).toHaveValue("api_2");
  // api_2 exists (getApi found it), so the 404 is the masked refusal of create_key there.
  expect(await screen.findByRole("note")).toHaveTextContent(
    "Creating a key in this API needs api.*.create_key (every API) or api.api_2.create_key (this API only)",
  );
  expect(within(offers).getByRole("button", { name: "Search" })).toHaveAttribute("aria-pressed", "true");
  expect(screen.getByLabelText("Name")).toBeDisabled();

  await user.click(within(offers).getByRole("button", { name: "Payments" }));
  expect(await screen.findByText("This root key may create keys in it.")).toBeInTheDocument();
  expect(screen.getByLabelText("Name")).toBeEnabled();
});

const actionsFor = (key: Key, on: Connection = connection) => (
  <KeyActions
    connection={on}
    listedIn={on.apiId}
    apiKey={key}
    cache={fakeCache()}
    now={0}
    refusedAs={null}
    renderError={renderError}
    keyHref={(id) => `/keys/${id}`}
    onDeleted={vi.fn()}
  />
);

test("Reroll is checked before its form with a createKey the service refuses after its permission check, and its masked 404 is read as the refusal", async () => {
  const user = userEvent.setup();
  const sent = stubApi({ "/v2/keys.createKey": notFound("api_not_found", "The specified API was not found.") });
  render(wrap(actionsFor({ keyId: "key_1", enabled: true })));

  await user.click(screen.getByRole("button", { name: "Reroll" }));

  const note = await screen.findByRole("note");
  expect(note).toHaveTextContent(
    "Rerolling needs api.*.create_key (every API) or api.api_1.create_key (this API only)",
  );
  expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  // A refill without credits.remaining: both services refuse it after the create_key check, so nothing is made.
  expect(sent).toEqual([
    {
      path: "/v2/keys.createKey",
      body: {
        apiId: "api_1",
        name: expect.stringContaining("Keyscope permission check") as unknown,
        enabled: false,
        credits: { remaining: null, refill: { interval: "daily", amount: 1 } },
      },
    },
  ]);
  expect(screen.getByRole("button", { name: "Reroll" })).toBeDisabled();
});

test("Reroll opens its form when the probe is refused for the refill rule, which only a root key with create_key reaches", async () => {
  const user = userEvent.setup();
  stubApi({
    "/v2/keys.createKey": {
      status: 400,
      body: {
        meta: { requestId: "req_5" },
        error: {
          status: 400,
          title: "Bad Request",
          detail: "`credits.remaining` must be provided when `credits.refill` is set.",
          type: "https://unkey.com/docs/errors/unkey/application/invalid_input",
          errors: [],
        },
      },
    },
  });
  render(wrap(actionsFor({ keyId: "key_1", enabled: true })));
  await user.click(screen.getByRole("button", { name: "Reroll" }));
  const dialog = await screen.findByRole("dialog", { name: "Reroll key" });
  expect(dialog).not.toHaveTextContent("known only by trying");
});

test("a refusal counts for the API it was about: a key of another API is probed again, and the note says the permission both ways", async () => {
  const user = userEvent.setup();
  const noApi: Connection = { baseUrl: connection.baseUrl, apiKey: connection.apiKey };
  const sent = stubApi({
    "/v2/keys.updateKey": (body) =>
      body.keyId === "key_a"
        ? forbidden("Missing one of these permissions: api.*.update_key or api.api_a.update_key")
        : ok({}),
  });
  const { unmount } = render(wrap(actionsFor({ keyId: "key_a", enabled: true }, noApi)));
  await user.click(screen.getByRole("button", { name: "Edit" }));
  const note = await screen.findByRole("note");
  expect(note).toHaveTextContent(
    "Changing this key needs api.*.update_key (every API) or api.api_a.update_key (this API only)",
  );
  expect(note).toHaveTextContent("for api_a");
  unmount();

  render(wrap(actionsFor({ keyId: "key_b", enabled: true }, noApi)));
  expect(screen.queryByRole("note")).not.toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Edit" }));
  expect(await screen.findByRole("dialog", { name: "Edit key" })).toBeInTheDocument();
  expect(sent.filter((call) => call.path === "/v2/keys.updateKey").map((call) => call.body.keyId)).toEqual([
    "key_a",
    "key_b",
  ]);
});

test("a key opened by its id, not shown in the connection's API's list, is not held back by that API's refusal: it may be another API's", async () => {
  const user = userEvent.setup();
  stubApi({
    "/v2/keys.updateKey": (body) =>
      body.keyId === "key_listed"
        ? forbidden("Missing one of these permissions: api.*.update_key or api.api_1.update_key")
        : ok({}),
  });
  const listed = render(wrap(actionsFor({ keyId: "key_listed", enabled: true })));
  await user.click(screen.getByRole("button", { name: "Disable" }));
  expect(await screen.findByRole("note")).toHaveTextContent("api.api_1.update_key");
  listed.unmount();

  // Another key of the list is held back at once; the key opened by its id (listed nowhere) is not.
  const sibling = render(wrap(actionsFor({ keyId: "key_sibling", enabled: true })));
  expect(screen.getByRole("note")).toHaveTextContent("api.api_1.update_key");
  sibling.unmount();
  render(
    wrap(
      <KeyActions
        connection={connection}
        apiKey={{ keyId: "key_opened", enabled: true }}
        cache={fakeCache()}
        now={0}
        refusedAs={null}
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={vi.fn()}
      />,
    ),
  );
  expect(screen.queryByRole("note")).not.toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Edit" })).toBeEnabled();
});

test("Delete has no probe that deletes nothing: its form says the permission is unknown until tried, then the refusal is said before it", async () => {
  const user = userEvent.setup();
  const sent = stubApi({
    "/v2/keys.deleteKey": forbidden("Missing one of these permissions: api.*.delete_key or api.api_1.delete_key"),
  });
  render(wrap(actionsFor({ keyId: "key_1", name: "Worker", enabled: true })));
  await user.click(screen.getByRole("button", { name: "Delete" }));
  const dialog = await screen.findByRole("dialog", { name: "Delete key" });
  expect(sent).toEqual([]);
  expect(dialog).toHaveTextContent(
    "Deleting a key needs api.*.delete_key (every API) or api.api_1.delete_key (this API only). Whether this root key has it is known only by trying",
  );
  await user.type(screen.getByLabelText("Type Worker to confirm"), "Worker");
  await user.click(screen.getByRole("button", { name: "Delete key" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("api.*.delete_key");
  await user.click(screen.getByRole("button", { name: "Close" }));
  expect(screen.getByRole("note")).toHaveTextContent("Deleting needs api.*.delete_key");
  expect(screen.getByRole("button", { name: "Delete" })).toBeDisabled();
});

test("the keyboard focus stays on the page when a refusal disables the button that opened a dialog, and when Check again enables it", async () => {
  const user = userEvent.setup();
  let granted = false;
  stubApi({
    "/v2/keys.deleteKey": () =>
      granted ? ok({}) : forbidden("Missing one of these permissions: api.*.delete_key or api.api_1.delete_key"),
  });
  render(wrap(actionsFor({ keyId: "key_1", name: "Worker", enabled: true })));
  screen.getByRole("button", { name: "Delete" }).focus();
  await user.keyboard("{Enter}");
  const dialog = await screen.findByRole("dialog", { name: "Delete key" });
  await user.type(screen.getByLabelText("Type Worker to confirm"), "Worker{Enter}");
  expect(await screen.findByRole("alert")).toHaveTextContent("api.*.delete_key");
  pressEscape(dialog);
  expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  // The Delete button that opened the dialog is disabled now: the focus goes to what says why, not to the page's start.
  expect(screen.getByRole("button", { name: "Delete" })).toBeDisabled();
  await waitFor(() => expect(screen.getByRole("button", { name: "Granted since? Check again" })).toHaveFocus());

  granted = true;
  await user.keyboard("{Enter}");
  expect(screen.queryByRole("note")).not.toBeInTheDocument();
  expect(screen.getByRole("button", { name: "Delete" })).toHaveFocus();
});

test("Add permission re-adds a permission the key holds as its own to learn rbac.*.add_permission_to_key; with roles it cannot, and says so", async () => {
  const user = userEvent.setup();
  const sent = stubApi({
    "/v2/keys.addPermissions": forbidden("Missing one of these permissions: rbac.*.add_permission_to_key"),
  });
  const own: Key = { keyId: "key_1", enabled: true, permissions: ["documents.read"] };
  const { unmount } = render(
    wrap(
      <KeyActions
        connection={connection}
        listedIn={connection.apiId}
        apiKey={own}
        cache={fakeCache()}
        now={0}
        refusedAs="INSUFFICIENT_PERMISSIONS"
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={vi.fn()}
      />,
    ),
  );
  await user.click(screen.getByRole("button", { name: "Add permission" }));
  expect(await screen.findByRole("note")).toHaveTextContent(
    "Adding a permission needs rbac.*.add_permission_to_key together with api.*.update_key (every API) or api.api_1.update_key",
  );
  expect(sent).toEqual([
    { path: "/v2/keys.addPermissions", body: { keyId: "key_1", permissions: ["documents.read"] } },
  ]);
  expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  unmount();
  forgetRefusals();

  const withRoles: Key = { keyId: "key_2", enabled: true, permissions: ["documents.read"], roles: ["reader"] };
  render(
    wrap(
      <KeyActions
        connection={connection}
        listedIn={connection.apiId}
        apiKey={withRoles}
        cache={fakeCache()}
        now={0}
        refusedAs="INSUFFICIENT_PERMISSIONS"
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={vi.fn()}
      />,
    ),
  );
  await user.click(screen.getByRole("button", { name: "Add permission" }));
  expect(await screen.findByRole("dialog", { name: "Permissions and roles" })).toHaveTextContent(
    "known only by trying",
  );
  expect(sent.filter((call) => call.path.startsWith("/v2/keys."))).toHaveLength(1);
});

/** Every request's deadline, to end one by hand: `AbortSignal.timeout` is what the transport's deadline waits on. */
function controlDeadlines(): AbortController[] {
  const deadlines: AbortController[] = [];
  vi.spyOn(AbortSignal, "timeout").mockImplementation(() => {
    const controller = new AbortController();
    deadlines.push(controller);
    return controller.signal;
  });
  return deadlines;
}

test("a createKey that got no answer may have made the key: no blind retry, the list is checked first and a key made since is shown", async () => {
  const user = userEvent.setup();
  const deadlines = controlDeadlines();
  const startedAt = Date.now();
  const sent = stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    ...createKeyAllowed(() => {
      // The request reached the service, which made the key; the answer never comes back before the deadline.
      deadlines.at(-1)?.abort();
      return new Promise<Answer>(() => undefined);
    }),
    "/v2/apis.listKeys": ok([
      { keyId: "key_old", name: "Worker", createdAt: startedAt - 24 * 60 * 60 * 1000 },
      { keyId: "key_other", name: "Someone else", createdAt: startedAt },
      { keyId: "key_made", name: "Worker", createdAt: startedAt + 10 },
    ]),
  });
  const cache = fakeCache();
  render(wrap(<CreateKeyDialog connection={connection} cache={cache} renderError={renderError} onClose={vi.fn()} />));
  expect(await screen.findByText("This root key may create keys in it.")).toBeInTheDocument();
  await user.type(screen.getByLabelText("Name"), "Worker");
  await user.click(screen.getByRole("button", { name: "Create key" }));

  const warning = await screen.findByRole("alert");
  expect(warning).toHaveTextContent("may have reached the service and created the key");
  expect(screen.queryByRole("button", { name: "Retry" })).not.toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Check the list first" }));

  expect(await screen.findByText("key_made")).toBeInTheDocument();
  expect(warning).toHaveTextContent("It did: a key named “Worker” created since the request");
  expect(screen.queryByText("key_old")).not.toBeInTheDocument();
  expect(screen.queryByText("key_other")).not.toBeInTheDocument();
  expect(cache.keyCreated).toHaveBeenCalledWith("key_made", "api_1");
  expect(screen.getByRole("button", { name: "Create another anyway" })).toBeInTheDocument();
  expect(sent.filter((call) => call.path === "/v2/keys.createKey" && !isCreateProbe(call.body))).toHaveLength(1);
});

test("when the list shows no key made since the unanswered createKey, Retry sends it again", async () => {
  const user = userEvent.setup();
  const deadlines = controlDeadlines();
  let calls = 0;
  const sent = stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    ...createKeyAllowed(() => {
      calls += 1;
      if (calls > 1) return ok({ keyId: "key_new", key: SECRET });
      deadlines.at(-1)?.abort();
      return new Promise<Answer>(() => undefined);
    }),
    "/v2/apis.listKeys": ok([]),
  });
  render(
    wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );
  expect(await screen.findByText("This root key may create keys in it.")).toBeInTheDocument();
  await user.type(screen.getByLabelText("External id"), "user_42");
  await user.click(screen.getByRole("button", { name: "Create key" }));
  await user.click(await screen.findByRole("button", { name: "Check the list first" }));

  expect(await screen.findByRole("alert")).toHaveTextContent(
    "No key without a name for user_42 was created since the request: sending it again makes one key.",
  );
  expect(sent.findLast((call) => call.path === "/v2/apis.listKeys")?.body).toMatchObject({
    apiId: "api_1",
    externalId: "user_42",
  });
  await user.click(screen.getByRole("button", { name: "Retry" }));
  expect(await screen.findByLabelText("Secret")).toHaveValue(SECRET);
});

test("createKey's 404 for the connection's API, which exists, is the refusal: said with the API, and the form held back", async () => {
  const user = userEvent.setup();
  stubApi({
    "/v2/permissions.listPermissions": ok([]),
    "/v2/permissions.listRoles": ok([]),
    "/v2/apis.getApi": forbidden("Missing one of these permissions: api.*.read_api or api.api_1.read_api"),
    // The probe meets a failing service, so the form opens; the request itself is refused as not found.
    "/v2/keys.createKey": (body) =>
      isCreateProbe(body)
        ? {
            status: 503,
            body: {
              meta: { requestId: "req_6" },
              error: {
                status: 503,
                title: "Service Unavailable",
                detail: "try later",
                type: "https://unkey.com/docs/errors/unkey/application/service_unavailable",
              },
            },
          }
        : notFound("api_not_found", "The specified API was not found."),
  });
  render(
    wrap(<CreateKeyDialog connection={connection} cache={fakeCache()} renderError={renderError} onClose={vi.fn()} />),
  );
  expect(await screen.findByText(/known only by trying/)).toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Create key" }));

  expect(await screen.findByText(/Creating a key in this API needs/)).toHaveTextContent(
    "api.*.create_key (every API) or api.api_1.create_key (this API only)",
  );
  expect(screen.queryByText(/Either that API id is wrong/)).not.toBeInTheDocument();
  expect(screen.getByLabelText("Name")).toBeDisabled();
});
