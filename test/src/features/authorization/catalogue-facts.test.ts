import { describe, expect, test } from "vitest";
import { authorizationSearch, DEFAULT_VIEW, readAuthorizationView } from "@/features/authorization/authorization-view";
import { missingFor } from "@/features/authorization/catalogue-access";
import { permissionsChange, rolesHolding } from "@/features/authorization/catalogue-facts";

describe("what setting a role's permissions changes", () => {
  test("adds what is picked and not held, removes what is held and not picked, slug by slug without regard to case", () => {
    expect(permissionsChange(["Docs.Read", "docs.write"], ["docs.read", "billing.read", "BILLING.READ"])).toEqual({
      added: ["billing.read"],
      removed: ["docs.write"],
    });
    expect(permissionsChange(["a"], ["a"])).toEqual({ added: [], removed: [] });
    expect(permissionsChange(["a", "b"], [])).toEqual({ added: [], removed: ["a", "b"] });
  });
});

describe("the roles that hold a permission", () => {
  const permission = { id: "perm_2", name: "Read docs", slug: "docs.read" };
  test("are those whose permissions name it by id or by slug in any case; a role without permissions holds none", () => {
    const roles = [
      { id: "role_1", name: "by id", permissions: [{ id: "perm_2", name: "x", slug: "renamed" }] },
      { id: "role_2", name: "by slug", permissions: [{ id: "perm_9", name: "x", slug: "DOCS.READ" }] },
      { id: "role_3", name: "other", permissions: [{ id: "perm_3", name: "x", slug: "docs.write" }] },
      { id: "role_4", name: "empty" },
    ];
    expect(rolesHolding(roles, permission).map((role) => role.name)).toEqual(["by id", "by slug"]);
  });
});

describe("what a refusal of a catalogue change says is missing", () => {
  test("the permission the service's words name, else the first the change needs", () => {
    expect(missingFor("set_role_permissions", "Missing permission: 'rbac.*.remove_permission_from_role'")).toBe(
      "rbac.*.remove_permission_from_role",
    );
    expect(missingFor("set_role_permissions", "Forbidden")).toBe("rbac.*.add_permission_to_role");
    expect(missingFor("delete_role", "Missing one of these permissions: rbac.*.delete_role")).toBe(
      "rbac.*.delete_role",
    );
  });
});

describe("the Authorization page's address", () => {
  test("holds the list and the search; anything else is the default, which an address leaves out", () => {
    expect(readAuthorizationView(new URLSearchParams("tab=permissions&q=docs"))).toEqual({
      tab: "permissions",
      search: "docs",
    });
    expect(readAuthorizationView(new URLSearchParams("tab=keys"))).toEqual(DEFAULT_VIEW);
    expect(authorizationSearch(DEFAULT_VIEW)).toBe("");
    expect(authorizationSearch({ tab: "permissions", search: "a b&c" })).toBe("?tab=permissions&q=a+b%26c");
    const view = { tab: "roles" as const, search: "x ‮y" };
    expect(readAuthorizationView(new URLSearchParams(authorizationSearch(view).slice(1)))).toEqual(view);
  });
});
