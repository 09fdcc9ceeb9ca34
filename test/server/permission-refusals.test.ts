import { describe, expect, test } from "vitest";
import { anyIdentityRule, rbacTuples, requirePermission, type PermissionRule } from "../../server/auth/permissions";
import { ApiRefusal } from "../../server/http/api-refusal";

/** A 403's detail says what the real service's permission query says, by the query's shape (its pkg/rbac). */

function refusal(held: readonly string[], rule: PermissionRule): string {
  try {
    requirePermission(JSON.stringify(held), rule);
  } catch (error) {
    if (error instanceof ApiRefusal) return error.detail;
    throw error;
  }
  throw new Error("the rule was allowed");
}

describe("the 403's words", () => {
  test("one tuple asked alone (rbac.T) names it: Missing permission: '…'", () => {
    expect(refusal(["rbac.*.read_permission"], rbacTuples("create_permission"))).toBe(
      "Missing permission: 'rbac.*.create_permission'",
    );
  });

  test("tuples asked together (rbac.And) name the first one lacking", () => {
    const rule = rbacTuples("add_permission_to_role", "remove_permission_from_role");
    expect(refusal([], rule)).toBe("Missing permission: 'rbac.*.add_permission_to_role'");
    expect(refusal(["rbac.*.add_permission_to_role"], rule)).toBe(
      "Missing permission: 'rbac.*.remove_permission_from_role'",
    );
    expect(() => {
      requirePermission(JSON.stringify(["rbac.*.add_permission_to_role", "rbac.*.remove_permission_from_role"]), rule);
    }).not.toThrow();
  });

  test("a tuple or its URN (rbac.Or) names both, as one of these", () => {
    expect(refusal(["identity.*.read_identity"], anyIdentityRule("update_identity", "ws_1"))).toBe(
      "Missing one of these permissions: identity.*.update_identity or unkey:v1:ws_1:projects/*/identities/*#update_identity",
    );
  });
});
