import { missingPermissionsDetail, ratelimitPermission } from "../../../src/lib/contract";
import { analyticsNamespaces } from "../../auth/permissions";
import { ApiRefusal } from "../../http/api-refusal";
import { operation } from "../../http/operation";
import {
  checkQueryText,
  outcomeResponse,
  queryBody,
  takeQuota,
  type AnalyticsRouteDependencies,
} from "./analytics-query";

const GET_RATELIMITS = queryBody("ratelimits_v1");

/**
 * `POST /v2/analytics.getRatelimits`: the workspace's rate-limit decisions through a checked SQL query over
 * `ratelimits_v1` and its per-minute, hour, day and month sums.
 */
export function getRatelimits(deps: AnalyticsRouteDependencies) {
  return operation(deps, { body: GET_RATELIMITS }, async (c) => {
    const rootKey = c.get("rootKey");
    const readable = analyticsNamespaces(rootKey.permissions);
    if (readable === undefined) {
      throw new ApiRefusal("err:svc:authorization:insufficient_permissions", {
        detail: missingPermissionsDetail([ratelimitPermission("read_analytics")]),
      });
    }
    const { query } = c.req.valid("json");
    checkQueryText(query);
    const settings = takeQuota(deps, rootKey.workspaceId);
    // As the real service: a root key that may read some namespaces' analytics sees only their rows, whether or not
    // the ids it names exist (the workspace's filter keeps another workspace's namespace out); a deleted namespace's
    // history stays readable.
    const namespaceIds = readable === "all" ? undefined : readable;
    return outcomeResponse(
      c,
      await deps.engine.queryRatelimits(rootKey.workspaceId, query, settings.retentionDays, namespaceIds),
    );
  });
}
