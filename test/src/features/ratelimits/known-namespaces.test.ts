import { beforeEach, describe, expect, test } from "vitest";
import {
  findKnownNamespace,
  forgetLearntIds,
  forgetNamespace,
  KNOWN_NAMESPACES_MAX,
  learnNamespaceId,
  NAMESPACES_ITEM,
  rememberNamespace,
} from "@/features/ratelimits/known-namespaces";
import type { Connection } from "@/lib/api/transport";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_S3cretK3yValue9876543210" };
const other: Connection = { ...connection, apiKey: "ks_root_AnotherKeyAltogether000" };

beforeEach(() => forgetLearntIds());

describe("the namespaces this browser knows", () => {
  test("are kept per connection, newest first, by name and id only: never the key", () => {
    rememberNamespace(connection, " api.requests ");
    rememberNamespace(connection, "rlns_Sms2");
    expect(findKnownNamespace(connection, "api.requests")).toEqual({ name: "api.requests", id: undefined });
    expect(findKnownNamespace(connection, "rlns_Sms2")).toEqual({ name: "rlns_Sms2", id: "rlns_Sms2" });
    expect(findKnownNamespace(other, "api.requests")).toBeUndefined();
    const stored = localStorage.getItem(NAMESPACES_ITEM) ?? "";
    expect(stored).not.toContain(connection.apiKey);
    const byConnection = (JSON.parse(stored) as { byConnection: Record<string, unknown> }).byConnection;
    expect(Object.values(byConnection)).toEqual([[{ name: "rlns_Sms2", id: "rlns_Sms2" }, { name: "api.requests" }]]);
  });

  test("an id learnt later is kept with its name; a malformed one is not", () => {
    rememberNamespace(connection, "api.requests");
    learnNamespaceId(connection, "api.requests", "not an id");
    expect(findKnownNamespace(connection, "api.requests")?.id).toBeUndefined();
    learnNamespaceId(connection, "api.requests", "rlns_Api1");
    expect(findKnownNamespace(connection, "api.requests")?.id).toBe("rlns_Api1");
  });

  test("what storage holds that is not a list of names and ids is dropped, never trusted", () => {
    localStorage.setItem(NAMESPACES_ITEM, JSON.stringify({ byConnection: { x: [{ name: "", id: "rlns_1" }] } }));
    expect(findKnownNamespace(connection, "")).toBeUndefined();
    localStorage.setItem(NAMESPACES_ITEM, "{not json");
    rememberNamespace(connection, "api.requests");
    expect(findKnownNamespace(connection, "api.requests")).toBeDefined();
  });

  test("a connection keeps at most so many; forgetting one keeps the others", () => {
    for (let index = 0; index < KNOWN_NAMESPACES_MAX + 5; index += 1) rememberNamespace(connection, `ns.${index}`);
    expect(findKnownNamespace(connection, "ns.0")).toBeUndefined();
    expect(findKnownNamespace(connection, `ns.${KNOWN_NAMESPACES_MAX + 4}`)).toBeDefined();
    forgetNamespace(connection, `ns.${KNOWN_NAMESPACES_MAX + 4}`);
    expect(findKnownNamespace(connection, `ns.${KNOWN_NAMESPACES_MAX + 4}`)).toBeUndefined();
    expect(findKnownNamespace(connection, `ns.${KNOWN_NAMESPACES_MAX + 3}`)).toBeDefined();
  });
});
