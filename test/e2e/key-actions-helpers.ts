import type { Locator, Page } from "@playwright/test";
import type { StartedServer } from "../support/server-process";
import { enterKey, expect } from "./fixtures";

/** The key actions' end-to-end steps: root keys, keys, verifying them as a caller would, opening a key's page. */

/** A root key that may do everything the key actions do, and verify keys to check what they did. */
export const ACTING_PERMISSIONS = [
  "api.*.read_key",
  "api.*.read_analytics",
  "api.*.verify_key",
  "api.*.create_key",
  "api.*.update_key",
  "api.*.delete_key",
  "rbac.*.read_permission",
  "rbac.*.read_role",
].join(",");

export function actingRootKey(server: StartedServer, name: string, more: readonly string[] = []): Promise<string> {
  return server.admin(["root-key", "create", "--name", name, "--permissions", [ACTING_PERMISSIONS, ...more].join(",")]);
}

export async function connect(page: Page, server: StartedServer, rootKey: string): Promise<void> {
  await page.goto(`${server.url}/connect`);
  await enterKey(page, rootKey);
  await expect(page.getByRole("button", { name: "Forget key" })).toBeVisible();
}

/** A key made with the admin CLI: its id and secret. */
export async function adminKey(server: StartedServer, args: string[]): Promise<{ keyId: string; secret: string }> {
  const [keyId = "", secret = ""] = (await server.admin(["keys", "create", ...args])).split(" ");
  return { keyId, secret };
}

export async function openKey(page: Page, server: StartedServer, keyId: string, name: string): Promise<void> {
  await page.goto(`${server.url}/keys/${keyId}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

/** What the key's page says in its Fields for `term` ("Expires", "Enabled"). */
export function fieldValue(page: Page, term: string): Locator {
  return page
    .getByRole("region", { name: "Fields" })
    .locator(".facts__row")
    .filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${term}$`) }) })
    .getByRole("definition");
}
