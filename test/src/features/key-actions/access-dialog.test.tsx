import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, expect, test, vi } from "vitest";
import { AccessDialog } from "@/features/key-actions/components/access-dialog";
import { KeyActions } from "@/features/key-actions/components/key-actions";
import { forgetRefusals } from "@/features/key-actions/refusals";
import type { Connection } from "@/lib/api/transport";
import type { Key } from "@/lib/contract";
import { freshQueryClientPerTest } from "../../support/query-tests";
import {
  fakeCache,
  findEntry,
  forbidden,
  ok,
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

afterEach(() => forgetRefusals());

function wrap(children: ReactNode) {
  return <QueryClientProvider client={queryClient()}>{children}</QueryClientProvider>;
}

/** `reports.view` comes from its role `viewer`; `documents.read` is its own. */
const KEY: Key = {
  keyId: "key_1",
  name: "Worker",
  enabled: true,
  permissions: ["documents.read", "reports.view"],
  roles: ["viewer"],
};

const changes = (sent: { path: string; body: Record<string, unknown> }[]) =>
  sent.filter((call) => !call.path.startsWith("/v2/permissions."));

function renderAccess(key: Key = KEY) {
  const cache = fakeCache();
  const onClose = vi.fn();
  render(
    wrap(
      <AccessDialog connection={connection} apiKey={key} cache={cache} renderError={renderError} onClose={onClose} />,
    ),
  );
  return { cache, onClose };
}

test("what the key's roles give is listed apart, not offered for removal", async () => {
  stubApi(WORKSPACE);
  renderAccess();
  expect(await screen.findByText(/not removable here: remove the role/)).toBeInTheDocument();
  // Shown isolated from the text around it (a <bdi>), as every name from the service is.
  const given = screen.getByText("reports.view", { selector: ".access-fields__given code bdi" });
  expect(given.closest("li")).toHaveTextContent("reports.view from viewer");
  expect(await findEntry("Permissions", "documents.read")).toHaveAttribute("aria-selected", "true");
  expect(await findEntry("Permissions", "reports.view")).toHaveAttribute("aria-selected", "false");
  expect(screen.getByRole("list", { name: "Permissions picked" })).toHaveTextContent(/^documents\.readRemove$/);
});

test("a permission unchecked is removed with keys.removePermissions, and the page shows it at once", async () => {
  const user = userEvent.setup();
  const sent = stubApi({ ...WORKSPACE, "/v2/keys.removePermissions": ok([]) });
  const { cache, onClose } = renderAccess();
  await user.click(await findEntry("Permissions", "documents.read"));
  // Each name isolated from the sentence around it (a <bdi>): the sentence is the paragraph's text.
  expect(
    screen.getByText(
      (_, element) => element?.tagName === "P" && element.textContent === "Removes documents.read (permissions).",
    ),
  ).toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Save permissions and roles" }));
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(changes(sent)).toEqual([
    { path: "/v2/keys.removePermissions", body: { keyId: "key_1", permissions: ["documents.read"] } },
  ]);
  expect(cache.patchKey).toHaveBeenCalledWith("key_1", { permissions: ["reports.view"] });
  expect(cache.refreshKey).toHaveBeenCalledWith("key_1");
});

test("one added and one removed replace the key's own with keys.setPermissions; a role added goes with keys.addRoles", async () => {
  const user = userEvent.setup();
  const sent = stubApi({ ...WORKSPACE, "/v2/keys.setPermissions": ok([]), "/v2/keys.addRoles": ok([]) });
  const { onClose } = renderAccess();
  await user.click(await findEntry("Permissions", "documents.read"));
  // A permission the workspace lacks is offered as new: the change creates it.
  await user.type(screen.getByRole("combobox", { name: "Find permissions" }), "billing.read");
  await user.click(
    await screen.findByRole("button", { name: "Pick “billing.read”, a new permission (the change creates it)" }),
  );
  await user.click(await findEntry("Roles", "editor"));
  await user.click(screen.getByRole("button", { name: "Save permissions and roles" }));
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(changes(sent)).toEqual([
    { path: "/v2/keys.setPermissions", body: { keyId: "key_1", permissions: ["billing.read"] } },
    { path: "/v2/keys.addRoles", body: { keyId: "key_1", roles: ["editor"] } },
  ]);
});

test("a role removed goes with keys.removeRoles, and its permissions leave the page with it", async () => {
  const user = userEvent.setup();
  const sent = stubApi({ ...WORKSPACE, "/v2/keys.removeRoles": ok([]) });
  const { cache, onClose } = renderAccess();
  await user.click(await findEntry("Roles", "viewer"));
  await user.click(screen.getByRole("button", { name: "Save permissions and roles" }));
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(changes(sent)).toEqual([{ path: "/v2/keys.removeRoles", body: { keyId: "key_1", roles: ["viewer"] } }]);
  expect(cache.patchKey).toHaveBeenCalledWith("key_1", { roles: [], permissions: ["documents.read"] });
});

test("a refused change is rolled back, says the service's words, and names the permission before the next try", async () => {
  const user = userEvent.setup();
  stubApi({
    ...WORKSPACE,
    "/v2/keys.addPermissions": forbidden("Missing one of these permissions: rbac.*.add_permission_to_key"),
  });
  const { cache, onClose } = renderAccess();
  await user.click(await findEntry("Permissions", "documents.write"));
  await user.click(screen.getByRole("button", { name: "Save permissions and roles" }));
  expect(await screen.findByRole("alert")).toHaveTextContent(
    "Missing one of these permissions: rbac.*.add_permission_to_key",
  );
  expect(cache.rollbacks).toBe(1);
  expect(onClose).not.toHaveBeenCalled();
  expect(screen.getByRole("note")).toHaveTextContent("needs rbac.*.add_permission_to_key");
});

test("a key refused for a permission offers Add permission; the dialog says the permission asked for is not recorded", async () => {
  const user = userEvent.setup();
  const sent = stubApi({ ...WORKSPACE, "/v2/keys.updateKey": ok({}), "/v2/keys.addPermissions": ok([]) });
  render(
    wrap(
      <KeyActions
        connection={connection}
        apiKey={KEY}
        cache={fakeCache()}
        now={0}
        refusedAs="INSUFFICIENT_PERMISSIONS"
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={vi.fn()}
      />,
    ),
  );
  await user.click(within(screen.getByRole("group", { name: "Fix" })).getByRole("button", { name: "Add permission" }));
  const dialog = await screen.findByRole("dialog", { name: "Permissions and roles" });
  expect(dialog).toHaveTextContent("Which permission they asked for is not recorded");
  await user.click(await findEntry("Permissions", "documents.write", dialog));
  await user.click(within(dialog).getByRole("button", { name: "Save permissions and roles" }));
  await waitFor(() => expect(dialog).not.toBeInTheDocument());
  expect(changes(sent).at(-1)).toEqual({
    path: "/v2/keys.addPermissions",
    body: { keyId: "key_1", permissions: ["documents.write"] },
  });
});

test("Permissions and roles asks first what this root key may do there, and the dialog says each refusal before its form", async () => {
  const user = userEvent.setup();
  const notFound = (kind: string): Answer => ({
    status: 404,
    body: {
      meta: { requestId: "req_4" },
      error: {
        status: 404,
        title: "Not Found",
        detail: `The ${kind} was not found.`,
        type: `https://unkey.com/docs/errors/unkey/data/${kind}_not_found`,
      },
    },
  });
  const sent = stubApi({
    ...WORKSPACE,
    "/v2/keys.updateKey": ok({}),
    "/v2/keys.removePermissions": forbidden("Missing one of these permissions: rbac.*.remove_permission_from_key"),
    "/v2/keys.addRoles": notFound("role"),
  });
  render(
    wrap(
      <KeyActions
        connection={connection}
        apiKey={KEY}
        cache={fakeCache()}
        now={0}
        refusedAs={null}
        renderError={renderError}
        keyHref={(id) => `/keys/${id}`}
        onDeleted={vi.fn()}
      />,
    ),
  );
  await user.click(screen.getByRole("button", { name: "Permissions and roles" }));
  const dialog = await screen.findByRole("dialog", { name: "Permissions and roles" });
  expect(
    within(dialog)
      .getAllByRole("note")
      .map((note) => note.textContent),
  ).toEqual([
    expect.stringContaining("Removing a permission needs rbac.*.remove_permission_from_key"),
    // The key has a role: re-adding one of its permissions could make a role's its own, so adding stays unknown.
    expect.stringContaining("Adding a permission needs rbac.*.add_permission_to_key"),
  ]);
  expect(sent.map((call) => call.path).filter((path) => path.startsWith("/v2/keys."))).toEqual([
    "/v2/keys.updateKey",
    "/v2/keys.removePermissions",
    "/v2/keys.addRoles",
  ]);
});
