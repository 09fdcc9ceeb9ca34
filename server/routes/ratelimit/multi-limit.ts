import * as v from "valibot";
import { ratelimitPermission } from "../../../src/lib/contract";
import { requirePermission } from "../../auth/permissions";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import type { KeyRateLimiter } from "../../keys/key-rate-limiter";
import { decide, namespacesFor, requireLive } from "../../ratelimit/limit";
import { LIMIT_CHECK, LIMIT_CHECK_FIXES } from "./limit";

/** At most this many checks in one call, as the real service. */
const MAX_CHECKS = 100;

const MULTI_LIMIT = {
  schema: v.pipe(
    v.array(LIMIT_CHECK, "the body must be an array of limit checks"),
    v.minLength(1, "the body must hold at least one limit check"),
    v.maxLength(MAX_CHECKS, `the body may hold at most ${MAX_CHECKS} limit checks`),
  ),
  fixes: LIMIT_CHECK_FIXES,
  example: '[{"namespace": "sms.sign_up", "identifier": "user_123", "limit": 10, "duration": 60000}]',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/ratelimit.multiLimit`: every check decided at once, all or nothing (a refused check spends nothing of the
 * others), each answered with its own fate. Missing namespaces are created for a root key that may create them; then
 * `ratelimit.*.limit` or every namespace's own `limit`; then a deleted namespace is 410, in the real service's order.
 */
export function multiLimit(deps: ApiDependencies, limiter: KeyRateLimiter) {
  const clock = deps.clock ?? Date.now;
  return operation(deps, { body: MULTI_LIMIT }, async (c) => {
    const asks = c.req.valid("json");
    const caller = c.get("rootKey");
    const decisions = await deps.store.inGroupCommit(() =>
      deps.store.read((db) => {
        const context = { db, limiter, caller, requestId: c.get("requestId"), now: clock() };
        const namespaces = namespacesFor(
          asks.map((ask) => ask.namespace),
          context,
        );
        const planned = asks.map((ask) => {
          const namespace = namespaces.get(ask.namespace);
          if (namespace === undefined) throw new Error("a namespace was neither found nor created");
          return { namespace, ask };
        });
        // `ratelimit.*.limit`, or each namespace's own: (* or a) and (* or b)….
        const ids = [...new Set(planned.map(({ namespace }) => namespace.id))];
        requirePermission(caller.permissions, {
          oneOfEach: ids.map((id) => [ratelimitPermission("limit"), ratelimitPermission("limit", id)]),
        });
        for (const { namespace } of planned) requireLive(namespace);
        return decide(planned, context);
      }),
    );
    return dataAnswer(c, {
      passed: decisions.every((decision) => decision.passed),
      limits: decisions.map((decision, index) => ({
        namespace: asks[index]?.namespace ?? decision.namespace.name,
        identifier: decision.identifier,
        limit: decision.limit,
        remaining: decision.remaining,
        reset: decision.reset,
        passed: decision.passed,
        ...(decision.overrideId !== "" && { overrideId: decision.overrideId }),
      })),
    });
  });
}
