import { findByRole, fireEvent } from "@testing-library/react";
import { vi } from "vitest";
import type { KeyCache } from "@/features/key-actions/key-cache";
import { ApiError } from "@/lib/api-errors";

/** What the stubbed service answers to one request. */
export type Answer = { status: number; body: unknown };

/** A fetch that answers each operation (by path) from `answers`; records what was sent. */
export function stubApi(
  answers: Record<string, Answer | ((body: Record<string, unknown>) => Answer | Promise<Answer>)>,
) {
  const sent: { path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
      const body = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>;
      sent.push({ path, body });
      const answer = answers[path];
      const answered =
        typeof answer === "function"
          ? answer(body)
          : (answer ?? {
              status: 404,
              body: { error: { status: 404, title: "Not Found", detail: "no such route", type: "x" } },
            });
      return Promise.resolve(answered).then(
        ({ status, body: reply }) =>
          new Response(JSON.stringify(reply), { status, headers: { "content-type": "application/json" } }),
      );
    }),
  );
  return sent;
}

export const ok = (data: unknown): Answer => ({ status: 200, body: { meta: { requestId: "req_1" }, data } });
export const forbidden = (detail: string): Answer => ({
  status: 403,
  body: {
    meta: { requestId: "req_2" },
    error: {
      status: 403,
      title: "Insufficient Permissions",
      detail,
      type: "https://unkey.com/docs/errors/unkey/authorization/insufficient_permissions",
    },
  },
});

export function fakeCache(): KeyCache & { rollbacks: number } {
  const cache = {
    rollbacks: 0,
    patchKey: vi.fn(() => () => {
      cache.rollbacks += 1;
    }),
    keysPatched: vi.fn(),
    refreshKey: vi.fn(() => Promise.resolve()),
    keyCreated: vi.fn(() => Promise.resolve()),
    keyDeleted: vi.fn(),
  };
  return cache;
}

/** The failure panel, as the app renders it, reduced to the service's words. */
export const renderError = (error: unknown) => (
  <p role="alert">{error instanceof ApiError ? error.detail : String(error)}</p>
);

const ROLES = [
  { id: "role_1", name: "viewer", permissions: [{ id: "perm_3", name: "reports.view", slug: "reports.view" }] },
  { id: "role_2", name: "editor", permissions: [{ id: "perm_2", name: "documents.write", slug: "documents.write" }] },
];

const roleNotFound: Answer = {
  status: 404,
  body: {
    meta: { requestId: "req_3" },
    error: {
      status: 404,
      title: "Not Found",
      detail: "The requested role does not exist.",
      type: "https://unkey.com/docs/errors/unkey/data/role_not_found",
    },
  },
};

/**
 * The workspace's permissions and roles, as listed and as getRole answers each: the role `viewer` gives
 * `reports.view`, `editor` gives `documents.write`.
 */
export const WORKSPACE = {
  "/v2/permissions.listPermissions": ok([
    { id: "perm_1", name: "documents.read", slug: "documents.read" },
    { id: "perm_2", name: "documents.write", slug: "documents.write" },
    { id: "perm_3", name: "reports.view", slug: "reports.view" },
  ]),
  "/v2/permissions.listRoles": ok(ROLES),
  "/v2/permissions.getRole": (body: Record<string, unknown>) => {
    const role = ROLES.find((candidate) => candidate.name === body.role || candidate.id === body.role);
    return role === undefined ? roleNotFound : ok(role);
  },
};

/** An entry of a catalogue pick list (the permissions or the roles found), by its value (its name starts with it). */
export async function findEntry(list: "Permissions" | "Roles", value: string, within: HTMLElement = document.body) {
  const name = new RegExp(`^\\s*${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$)`);
  return findByRole(await findByRole(within, "listbox", { name: `${list} found` }), "option", { name });
}

/**
 * Escape as a browser handles it (happy-dom does not): the keydown, then a cancelable `cancel` on the open dialog,
 * which closes it unless one of them was prevented.
 */
export function pressEscape(dialog: HTMLElement) {
  if (!(dialog instanceof HTMLDialogElement)) throw new Error("not a dialog");
  if (!fireEvent.keyDown(dialog, { key: "Escape" })) return;
  if (fireEvent(dialog, new Event("cancel", { cancelable: true }))) dialog.close();
}
