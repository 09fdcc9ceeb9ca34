import * as v from "valibot";
import { ratelimitRule, requirePermission } from "../../auth/permissions";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import type { KeyRateLimiter } from "../../keys/key-rate-limiter";
import { decide, namespacesFor, requireLive } from "../../ratelimit/limit";
import {
  DURATION_MIN,
  IDENTIFIER_FIX,
  identifierField,
  LIMIT_DURATION_MAX,
  NAMESPACE_FIX,
  namespaceField,
  wholeNumber,
} from "./ratelimit-fields";

/** One limit check's fields: ratelimit.limit's body, and each item of ratelimit.multiLimit's. */
export const LIMIT_CHECK = v.strictObject({
  namespace: namespaceField,
  identifier: identifierField,
  limit: wholeNumber("limit", 1),
  duration: wholeNumber("duration", DURATION_MIN, LIMIT_DURATION_MAX),
  cost: v.optional(wholeNumber("cost", 0)),
});

export const LIMIT_CHECK_FIXES = {
  namespace: NAMESPACE_FIX,
  identifier: IDENTIFIER_FIX,
  limit: "Pass how many requests the window allows: a whole number of at least 1.",
  duration: `Pass the window in milliseconds, from ${DURATION_MIN} (a second) to ${LIMIT_DURATION_MAX} (30 days).`,
  cost: "Pass how much of the limit this request spends (a whole number ≥ 0), or leave cost out to spend 1.",
};

const LIMIT = {
  schema: LIMIT_CHECK,
  fixes: LIMIT_CHECK_FIXES,
  example: '{"namespace": "sms.sign_up", "identifier": "user_123", "limit": 10, "duration": 60000}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/ratelimit.limit`: 200 whether or not the identifier is over its limit (`success` says), with the override's
 * limit and window when one applies. A missing namespace is created for a root key holding
 * `ratelimit.*.create_namespace`; a deleted one is 410; then `ratelimit.<namespaceId>.limit` or `ratelimit.*.limit`,
 * in the real service's order. Answered once the decision is committed, with the others of its event-loop turn.
 */
export function limit(deps: ApiDependencies, limiter: KeyRateLimiter) {
  const clock = deps.clock ?? Date.now;
  return operation(deps, { body: LIMIT }, async (c) => {
    const ask = c.req.valid("json");
    const caller = c.get("rootKey");
    const decision = await deps.store.inGroupCommit(() =>
      deps.store.read((db) => {
        const context = { db, limiter, caller, requestId: c.get("requestId"), now: clock() };
        const namespace = namespacesFor([ask.namespace], context).get(ask.namespace);
        if (namespace === undefined) throw new Error("the namespace was neither found nor created");
        requireLive(namespace);
        requirePermission(caller.permissions, ratelimitRule("limit", namespace.id));
        const [decided] = decide([{ namespace, ask }], context);
        if (decided === undefined) throw new Error("no decision");
        return decided;
      }),
    );
    return dataAnswer(c, {
      success: decision.passed,
      limit: decision.limit,
      remaining: decision.remaining,
      reset: decision.reset,
      ...(decision.overrideId !== "" && { overrideId: decision.overrideId }),
    });
  });
}
