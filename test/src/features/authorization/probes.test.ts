import { afterEach, expect, test } from "vitest";
import {
  probeCreatePermission,
  probeDeletePermission,
  probeDeleteRole,
  probeSetRolePermissions,
} from "@/features/authorization/api/probes";
import { forgetAccessMemory } from "@/lib/access-memory";
import type { Connection } from "@/lib/api/transport";
import { changesSent, fakeCatalogue } from "./fake-catalogue";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };
const other: Connection = { ...connection, apiKey: "ks_root_AnotherKeyAltogether000" };

afterEach(() => forgetAccessMemory());

test("each probe is answered after the service's permission check, writes nothing, and is sent once per root key", async () => {
  const catalogue = fakeCatalogue({ roles: [{ name: "support", permissions: ["tickets.read"] }] });
  const before = JSON.stringify([catalogue.permissions, catalogue.roles]);
  expect(await probeDeletePermission(connection)).toBe("allowed");
  expect(await probeDeleteRole(connection)).toBe("allowed");
  expect(await probeSetRolePermissions(connection)).toBe("allowed");
  expect(await probeCreatePermission(connection, "tickets.read")).toBe("allowed");
  expect(JSON.stringify([catalogue.permissions, catalogue.roles])).toBe(before);
  expect(changesSent(catalogue).map((call) => call.path)).toEqual([
    "/v2/permissions.deletePermission",
    "/v2/permissions.deleteRole",
    "/v2/permissions.setRolePermissions",
    "/v2/permissions.createPermission",
  ]);
  // Known now: nothing more is sent for this root key; another root key is asked afresh.
  expect(await probeDeleteRole(connection)).toBe("allowed");
  expect(changesSent(catalogue)).toHaveLength(4);
  catalogue.granted.delete("delete_role");
  expect(await probeDeleteRole(other)).toBe("refused");
  expect(changesSent(catalogue)).toHaveLength(5);
});

test("a probe that fails for another reason than a refusal is unknown, and asked again next time", async () => {
  const catalogue = fakeCatalogue();
  catalogue.override.set(
    "/v2/permissions.deleteRole",
    () =>
      new Response(
        JSON.stringify({
          meta: { requestId: "req_5" },
          error: {
            status: 503,
            title: "Service Unavailable",
            detail: "down",
            type: "https://unkey.com/docs/errors/unkey/application/service_unavailable",
          },
        }),
        { status: 503, headers: { "content-type": "application/json" } },
      ),
  );
  expect(await probeDeleteRole(connection)).toBe("unknown");
  catalogue.override.clear();
  expect(await probeDeleteRole(connection)).toBe("allowed");
  expect(changesSent(catalogue)).toHaveLength(2);
});

test("with nothing to collide with, creating is unknown until tried, and nothing is sent", async () => {
  const catalogue = fakeCatalogue();
  expect(await probeCreatePermission(connection, undefined)).toBe("unknown");
  expect(changesSent(catalogue)).toEqual([]);
});
