import { beforeEach, describe, expect, test } from "vitest";
import {
  forgetAccess,
  forgetAccessMemory,
  isAllowedAt,
  isMissingOperationAt,
  learnAllowed,
  learnRefused,
  refusalAt,
} from "@/lib/access-memory";
import { ApiError, UnexpectedResponseError } from "@/lib/api-errors";
import type { Connection } from "@/lib/api/transport";
import { forgetSectionAccess, sectionAccessOf } from "@/lib/section-access";
import { readSection } from "@/lib/section-read";

const connection: Connection = { baseUrl: "https://api.example.com", apiKey: "ks_root_Mem0ryT3st" };
const otherKey: Connection = { ...connection, apiKey: "ks_root_An0therK3y" };
const slot = { action: "update_identity", on: "identities" };
const READ = { permissions: ["identity.*.read_identity"], operation: "/v2/identities.listIdentities" };

function forbidden(detail: string): ApiError {
  return new ApiError({
    status: 403,
    title: "Insufficient Permissions",
    detail,
    type: "https://api.example.com/docs/errors/svc/authorization/insufficient_permissions",
    requestId: "req_1",
    errors: [],
    retryAfterSeconds: null,
    keySent: true,
    url: "https://api.example.com/v2/identities.listIdentities",
  });
}

beforeEach(() => forgetAccessMemory());

describe("the session's memory of what the root key may do", () => {
  test("a refusal and an answer that went through count for their slot and root key only; the later one wins", () => {
    learnRefused(connection, slot, "Missing permission: 'identity.*.update_identity'");
    expect(refusalAt(connection, slot)?.detail).toBe("Missing permission: 'identity.*.update_identity'");
    expect(refusalAt(otherKey, slot)).toBeUndefined();
    expect(refusalAt(connection, { ...slot, action: "delete_identity" })).toBeUndefined();
    learnAllowed(connection, slot);
    expect(refusalAt(connection, slot)).toBeUndefined();
    expect(isAllowedAt(connection, slot)).toBe(true);
    forgetAccess(connection, slot);
    expect(isAllowedAt(connection, slot)).toBe(false);
  });

  test("a section's read: refused with the permissions that grant it, missing on a router's 404, and forgotten on Check again", async () => {
    await expect(
      readSection(connection, "identities", READ, () => Promise.reject(forbidden("Missing one of these: …"))),
    ).rejects.toThrow();
    const refused = sectionAccessOf(connection, "identities");
    expect(refused).toEqual({
      kind: "refused",
      needs: ["identity.*.read_identity"],
      detail: "Missing one of these: …",
    });
    // The same object while nothing changes: a snapshot React reads twice.
    expect(sectionAccessOf(connection, "identities")).toBe(refused);
    expect(sectionAccessOf(otherKey, "identities")).toBeUndefined();

    const routerNotFound = new UnexpectedResponseError({
      status: 404,
      contentType: "text/plain",
      reason: "not-envelope",
      bodyExcerpt: "404 page not found",
      requestId: null,
      url: "https://api.example.com/v2/identities.listIdentities",
    });
    await expect(readSection(otherKey, "identities", READ, () => Promise.reject(routerNotFound))).rejects.toThrow();
    expect(sectionAccessOf(otherKey, "identities")).toEqual({ kind: "missing", operation: READ.operation });
    expect(isMissingOperationAt(otherKey, READ.operation)).toBe(true);

    forgetSectionAccess(connection, "identities");
    forgetSectionAccess(otherKey, "identities");
    expect(sectionAccessOf(connection, "identities")).toBeUndefined();
    expect(sectionAccessOf(otherKey, "identities")).toBeUndefined();
    await readSection(connection, "identities", READ, () => Promise.resolve([]));
    expect(sectionAccessOf(connection, "identities")).toBeUndefined();
  });

  test("another failure (a 500, the network) says nothing of the section: the page shows its panel", async () => {
    await expect(
      readSection(connection, "identities", READ, () => Promise.reject(new Error("offline"))),
    ).rejects.toThrow();
    expect(sectionAccessOf(connection, "identities")).toBeUndefined();
  });
});
