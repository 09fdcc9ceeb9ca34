import type { Context } from "hono";
import type * as v from "valibot";
import { requirePermission, type PermissionRule } from "../auth/permissions";
import { requireAuthorizationHeader, rootKeyAuth } from "../auth/root-key";
import type { RootKeyRecord } from "../db/key-store";
import type { ApiDependencies, OperationEnv } from "./api-env";
import { jsonBody, type BodySpec } from "./json-body";

/** What an operation declares beside its handler. */
export interface OperationSpec<TSchema extends v.GenericSchema> {
  body: BodySpec<TSchema>;
  /**
   * What the root key must hold, where that follows from the body alone (a 403 naming what would allow it); where it
   * depends on what is stored (a key's API), the handler checks it with requirePermission.
   */
  permission?: (body: v.InferOutput<TSchema>, rootKey: RootKeyRecord) => PermissionRule;
}

/** The handler's context: the validated body in `c.req.valid("json")`, the root key in `c.get("rootKey")`. */
export type OperationContext<TSchema extends v.GenericSchema> = Context<
  OperationEnv,
  string,
  { in: { json: v.InferInput<TSchema> }; out: { json: v.InferOutput<TSchema> } }
>;

export type OperationHandler<TSchema extends v.GenericSchema> = (
  c: OperationContext<TSchema>,
) => Response | Promise<Response>;

/**
 * A `/v2` operation as the Hono handlers its route runs, in the real service's order: the Authorization header is
 * there (the seed's 401), the body is read and validated, the root key is authenticated, then the declared
 * permission and the handler. Every refusal on the way is thrown (http/api-refusal.ts) and rendered by the app's
 * onError. Mounted in one line: `.post(PATH, ...operation(deps, spec, handler))`.
 */
export function operation<TSchema extends v.GenericSchema>(
  deps: ApiDependencies,
  spec: OperationSpec<TSchema>,
  handler: OperationHandler<TSchema>,
) {
  const { permission } = spec;
  const permitted: OperationHandler<TSchema> =
    permission === undefined
      ? handler
      : (c) => {
          requirePermission(c.get("rootKey").permissions, permission(c.req.valid("json"), c.get("rootKey")));
          return handler(c);
        };
  return [requireAuthorizationHeader, ...jsonBody(spec.body), rootKeyAuth(deps), permitted] as const;
}
