import * as v from "valibot";
import { ratelimitRule, requirePermission } from "../../auth/permissions";
import { findNamespace, listOverrides as listStoredOverrides } from "../../db/ratelimits";
import { pageAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { overrideJson } from "./override-json";
import { NAMESPACE_FIX, namespaceField, wholeNumber } from "./ratelimit-fields";

/** A page's size when none is asked for, and the most: the real handler's. */
const LIMIT_DEFAULT = 50;
const LIMIT_MAX = 100;

const LIST_OVERRIDES = {
  schema: v.strictObject({
    namespace: namespaceField,
    cursor: v.optional(
      v.pipe(v.string("cursor must be a string"), v.maxLength(1024, "cursor must be at most 1024 characters")),
    ),
    limit: v.optional(wholeNumber("limit", 1, LIMIT_MAX)),
  }),
  fixes: {
    namespace: NAMESPACE_FIX,
    cursor: "Pass pagination.cursor from the previous page unchanged, or leave cursor out to start at the first page.",
    limit: `Pass a whole number from 1 to ${LIMIT_MAX}, or leave limit out for ${LIMIT_DEFAULT}.`,
  },
  example: '{"namespace": "sms.sign_up", "limit": 10}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/ratelimit.listOverrides` (`ratelimit.<namespaceId>.read_override` or `ratelimit.*.read_override`, as the
 * real handler asks): the namespace's overrides by id, a page at a time; the cursor is the next page's first id.
 */
export function listOverrides(deps: ApiDependencies) {
  return operation(deps, { body: LIST_OVERRIDES }, (c) => {
    const { namespace: nameOrId, cursor = "", limit = LIMIT_DEFAULT } = c.req.valid("json");
    const caller = c.get("rootKey");
    const rows = deps.store.read((db) => {
      // As the real handler, a deleted namespace's overrides are still listed.
      const namespace = findNamespace(db, caller.workspaceId, nameOrId);
      if (namespace === undefined) throw new ApiRefusal("err:svc:data:ratelimit_namespace_not_found");
      requirePermission(caller.permissions, ratelimitRule("read_override", namespace.id));
      return listStoredOverrides(db, namespace.id, cursor, limit + 1);
    });
    const next = rows.length > limit ? rows[limit]?.id : undefined;
    return pageAnswer(
      c,
      rows.slice(0, limit).map(overrideJson),
      next === undefined ? { hasMore: false } : { cursor: next, hasMore: true },
    );
  });
}
