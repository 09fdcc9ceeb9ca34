import { missingPermissionsDetail, READ_ANALYTICS_PERMISSION } from "../../../src/lib/contract";
import { analyticsApis } from "../../auth/permissions";
import { ApiRefusal } from "../../http/api-refusal";
import { operation } from "../../http/operation";
import {
  checkQueryText,
  outcomeResponse,
  queryBody,
  takeQuota,
  type AnalyticsRouteDependencies,
} from "./analytics-query";

const GET_VERIFICATIONS = queryBody("key_verifications_v1");

/** `POST /v2/analytics.getVerifications`: the workspace's verifications through a checked SQL query. */
export function getVerifications(deps: AnalyticsRouteDependencies) {
  return operation(deps, { body: GET_VERIFICATIONS }, async (c) => {
    const rootKey = c.get("rootKey");
    const readable = analyticsApis(rootKey.permissions);
    if (readable === undefined) {
      throw new ApiRefusal("err:svc:authorization:insufficient_permissions", {
        detail: missingPermissionsDetail([READ_ANALYTICS_PERMISSION]),
      });
    }
    // As the real service: a root key that may read some APIs' analytics sees only their key spaces' rows (an API
    // here is its own key space); one naming no API of the workspace sees none.
    const keySpaceIds =
      readable === "all" ? undefined : readable.filter((apiId) => deps.store.apiBelongsTo(apiId, rootKey.workspaceId));
    const { query } = c.req.valid("json");
    checkQueryText(query);
    const settings = takeQuota(deps, rootKey.workspaceId);
    return outcomeResponse(c, await deps.engine.query(rootKey.workspaceId, query, settings.retentionDays, keySpaceIds));
  });
}
