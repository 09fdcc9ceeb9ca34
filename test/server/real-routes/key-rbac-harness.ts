import * as v from "valibot";
import { beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../../server/db/ids";
import type { InProcessServer } from "../in-process";
import { dataOf, errorOf, type RealHarness } from "./real-harness";

/** What the real keys.{add,remove,set}{Permissions,Roles} tests set up and read: permissions by slug, a key's own ones. */

const PermissionList = v.array(v.object({ id: v.string(), name: v.string() }));

/** A permission of the workspace whose name is its slug (the real seed's CreatePermission); returns its id. */
export function insertPermission(server: InProcessServer, workspaceId: string, slug: string): string {
  const id = newId("perm");
  server.admin.db
    .prepare("INSERT INTO permissions (id, workspace_id, name, slug, created_at) VALUES (?, ?, ?, ?, ?)")
    .run(id, workspaceId, slug, slug, Date.now());
  return id;
}

/** The permission slugs a key holds directly, as stored. */
export function keyPermissions(server: InProcessServer, keyId: string): string[] {
  const stored = server.admin.db
    .prepare<[string], string>("SELECT permissions FROM keys WHERE id = ?")
    .pluck()
    .get(keyId);
  return v.parse(v.array(v.string()), JSON.parse(stored ?? "[]")).sort();
}

/** The role names a key holds, as stored. */
export function keyRoles(server: InProcessServer, keyId: string): string[] {
  const stored = server.admin.db.prepare<[string], string>("SELECT roles FROM keys WHERE id = ?").pluck().get(keyId);
  return v.parse(v.array(v.string()), JSON.parse(stored ?? "[]")).sort();
}

/** The `data` of a 200 answering a list of permissions or roles: `{id, name}` each. */
export async function listData(h: RealHarness, operation: string, body: object, key: string) {
  return v.parse(PermissionList, dataOf(await h.call(operation, body, { key })));
}

/**
 * The 401 tests (TestAuthenticationErrors) keys.{add,remove,set}Permissions share, name for name: the request `body`
 * (made once the harness `h` exists) sent with each Authorization header.
 */
export function describePermissionRouteAuthentication(
  operation: string,
  harness: () => RealHarness,
  body: () => object,
): void {
  describe("401", () => {
    let request: object;
    beforeAll(() => {
      request = body();
    });

    test("missing authorization header (served differently: the seed's 401 where the real service answers 400)", async () => {
      expect(errorOf(await harness().call(operation, request, "none")).status).toBe(401);
    });

    test.each([
      ["invalid bearer token", "Bearer invalid_token", 401, "key"],
      ["malformed authorization header", "invalid_format", 400, "valid root key"],
      ["empty bearer token", "Bearer ", 400, "valid root key"],
      ["disabled root key", "Bearer invalid_disabled_key", 401, "key"],
    ])("%s", async (_, authorization, status, detail) => {
      const error = errorOf(await harness().call(operation, request, { authorization }));
      expect(error.status).toBe(status);
      expect(error.detail).toContain(detail);
    });
  });
}
