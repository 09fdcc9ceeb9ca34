import * as v from "valibot";
import { isAllowed, overrideRule } from "../../auth/permissions";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { matchOverride } from "../../ratelimit/overrides";
import { liveNamespace } from "./namespace-of";
import { overrideJson } from "./override-json";
import { identifierField, NAMESPACE_FIX, namespaceField, OVERRIDE_IDENTIFIER_FIX } from "./ratelimit-fields";

export const OVERRIDE_OF_NAMESPACE = {
  schema: v.strictObject({ namespace: namespaceField, identifier: identifierField }),
  fixes: { namespace: NAMESPACE_FIX, identifier: OVERRIDE_IDENTIFIER_FIX },
  example: '{"namespace": "sms.sign_up", "identifier": "premium_*"}',
} satisfies BodySpec<v.GenericSchema>;

/**
 * `POST /v2/ratelimit.getOverride`: the override that applies to the identifier (set for it exactly, else a matching
 * pattern). One that does not exist and one the root key may not read (`ratelimit.<namespaceId>.read_override`,
 * `ratelimit.*.read_override`, or the override's URN) are the same 404, as on the real service, so that no one can
 * tell which identifiers have overrides.
 */
export function getOverride(deps: ApiDependencies) {
  return operation(deps, { body: OVERRIDE_OF_NAMESPACE }, (c) => {
    const { namespace: nameOrId, identifier } = c.req.valid("json");
    const caller = c.get("rootKey");
    const override = deps.store.read((db) => {
      const namespace = liveNamespace(db, caller.workspaceId, nameOrId);
      const found = matchOverride(db, namespace.id, identifier);
      const readable =
        found !== undefined &&
        isAllowed(
          caller.permissions,
          overrideRule("read_override", {
            workspaceId: caller.workspaceId,
            namespaceId: namespace.id,
            overrideId: found.id,
          }),
        );
      if (!readable) throw new ApiRefusal("err:svc:data:ratelimit_override_not_found");
      return found;
    });
    return dataAnswer(c, overrideJson(override));
  });
}
