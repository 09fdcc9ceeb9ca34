import { describe, expect, test } from "vitest";
import {
  apiGrants,
  apiPermission,
  identityPermission,
  ratelimitPermission,
  rbacPermission,
  URN_RESOURCES,
  urnPermission,
} from "@/lib/contract";

/** The root-key permission names and the grant rule, written once for the server and the dashboard. */

describe("permission names", () => {
  test("each resource's permission is <resource>.<id or *>.<action>, every resource's by default", () => {
    expect(apiPermission("read_key")).toBe("api.*.read_key");
    expect(apiPermission("read_key", "api_1")).toBe("api.api_1.read_key");
    expect(rbacPermission("add_permission_to_key")).toBe("rbac.*.add_permission_to_key");
    expect(identityPermission("read_identity")).toBe("identity.*.read_identity");
    expect(identityPermission("read_identity", "id_1")).toBe("identity.id_1.read_identity");
    expect(ratelimitPermission("limit", "ns_1")).toBe("ratelimit.ns_1.limit");
  });
});

describe("the grant rule", () => {
  test("an action on an API's keys is granted for every API first, then for that API", () => {
    expect(apiGrants("update_key", "api_1")).toEqual(["api.*.update_key", "api.api_1.update_key"]);
  });

  test("without an API, only the every-API form grants it", () => {
    expect(apiGrants("create_api")).toEqual(["api.*.create_api"]);
  });

  test("the URN form names the workspace, the resource's path and the action", () => {
    expect(urnPermission("ws_1", URN_RESOURCES.key("api_1", "key_1"), "read_key")).toBe(
      "unkey:v1:ws_1:keyspaces/api_1/keys/key_1#read_key",
    );
    expect(urnPermission("ws_1", URN_RESOURCES.anyIdentity(), "read_identity")).toBe(
      "unkey:v1:ws_1:projects/*/identities/*#read_identity",
    );
  });
});
