import { ratelimitRule, requirePermission } from "../../auth/permissions";
import { deleteOverride as deleteStoredOverride, findOverride } from "../../db/ratelimits";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import { operation } from "../../http/operation";
import { OVERRIDE_OF_NAMESPACE } from "./get-override";
import { liveNamespace } from "./namespace-of";

/**
 * `POST /v2/ratelimit.deleteOverride` (`ratelimit.<namespaceId>.delete_override` or `ratelimit.*.delete_override`,
 * checked once the namespace is found): the override set for exactly this identifier (a pattern as written), so the
 * next limit of an identifier it matched falls back to the next matching pattern or the request's own limit.
 */
export function deleteOverride(deps: ApiDependencies) {
  return operation(deps, { body: OVERRIDE_OF_NAMESPACE }, async (c) => {
    const { namespace: nameOrId, identifier } = c.req.valid("json");
    const caller = c.get("rootKey");
    await deps.store.change((db) => {
      const namespace = liveNamespace(db, caller.workspaceId, nameOrId);
      requirePermission(caller.permissions, ratelimitRule("delete_override", namespace.id));
      const override = findOverride(db, namespace.id, identifier);
      if (override === undefined) throw new ApiRefusal("err:svc:data:ratelimit_override_not_found");
      deleteStoredOverride(db, override.id);
    });
    return dataAnswer(c, {});
  });
}
