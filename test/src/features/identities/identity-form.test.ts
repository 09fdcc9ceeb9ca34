import * as v from "valibot";
import { describe, expect, test } from "vitest";
import {
  CreateIdentitySchema,
  editDraft,
  EditIdentitySchema,
  identityChanges,
} from "@/features/identities/identity-form";

const identity = {
  id: "id_1",
  externalId: "org_acme",
  meta: { plan: "pro" },
  ratelimits: [{ id: "rl_1", name: "requests", limit: 10, duration: 60_000, autoApply: true }],
};

describe("the identity forms", () => {
  test("Edit sends only what changed: the rate limits, the meta, or an emptied meta as {} (which clears it)", () => {
    const opened = editDraft(identity);
    const read = (draft: typeof opened) => v.parse(EditIdentitySchema, draft);
    expect(identityChanges(opened, read(opened), opened)).toBeUndefined();
    const raised = { ...opened, ratelimits: [{ ...opened.ratelimits[0]!, limit: "20" }] };
    expect(identityChanges(opened, read(raised), raised)).toEqual({
      ratelimits: [{ name: "requests", limit: 20, duration: 60_000, autoApply: true }],
    });
    const emptied = { ...opened, meta: "  " };
    expect(identityChanges(opened, read(emptied), emptied)).toEqual({ meta: {} });
    const none = { ...opened, ratelimits: [] };
    expect(identityChanges(opened, read(none), none)).toEqual({ ratelimits: [] });
  });

  test("Create reads the external id by the services' rule and leaves out what is empty", () => {
    expect(v.parse(CreateIdentitySchema, { externalId: " user_1 ", meta: "", ratelimits: [] })).toEqual({
      externalId: "user_1",
    });
    const refused = v.safeParse(CreateIdentitySchema, { externalId: "user 1", meta: "", ratelimits: [] });
    expect(refused.success).toBe(false);
    expect(v.safeParse(CreateIdentitySchema, { externalId: "", meta: "", ratelimits: [] }).issues?.[0].message).toBe(
      "Give it an external id: your system’s id for the customer, like user_123",
    );
  });
});
