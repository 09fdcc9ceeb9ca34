import * as v from "valibot";
import { ratelimitRule, requirePermission } from "../../auth/permissions";
import { setOverride as setStoredOverride } from "../../db/ratelimits";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { liveNamespace } from "./namespace-of";
import { DURATION_MIN, identifierField, NAMESPACE_FIX, namespaceField, wholeNumber } from "./ratelimit-fields";

const SET_OVERRIDE = {
  schema: v.strictObject({
    namespace: namespaceField,
    identifier: identifierField,
    limit: wholeNumber("limit", 0),
    duration: wholeNumber("duration", DURATION_MIN),
  }),
  fixes: {
    namespace: NAMESPACE_FIX,
    identifier:
      "Pass the identifier to override, or a pattern with * wildcards such as premium_* (up to 512 characters).",
    limit: "Pass how many requests the window allows: a whole number, 0 to block the identifier.",
    duration: `Pass the window in milliseconds, at least ${DURATION_MIN} (a second).`,
  },
  example: '{"namespace": "sms.sign_up", "identifier": "premium_*", "limit": 1000, "duration": 60000}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/ratelimit.setOverride` (`ratelimit.<namespaceId>.set_override` or `ratelimit.*.set_override`, checked once
 * the namespace is found): a new override, or the identifier's existing one (its id kept) with the new limit and
 * window; the next limit of a matching identifier applies it. Answers `{overrideId}`.
 */
export function setOverride(deps: ApiDependencies) {
  return operation(deps, { body: SET_OVERRIDE }, async (c) => {
    const { namespace: nameOrId, identifier, limit, duration } = c.req.valid("json");
    const caller = c.get("rootKey");
    const overrideId = await deps.store.change((db) => {
      const namespace = liveNamespace(db, caller.workspaceId, nameOrId);
      requirePermission(caller.permissions, ratelimitRule("set_override", namespace.id));
      return setStoredOverride(db, {
        workspaceId: caller.workspaceId,
        namespaceId: namespace.id,
        identifier,
        limit,
        durationMs: duration,
      });
    });
    return dataAnswer(c, { overrideId });
  });
}
