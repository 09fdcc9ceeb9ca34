import type { Context } from "hono";
import * as v from "valibot";
import {
  MAX_ANALYTICS_QUERY_LENGTH,
  MAX_BODY_BYTES,
  missingPermissionsDetail,
  READ_ANALYTICS_PERMISSION,
  type ErrorDetailEntry,
} from "../../src/lib/contract";
import type { ApiEnv } from "../api-env";
import { authenticateRootKey, type AuthDependencies } from "../auth";
import { errorResponse, okJson, type ServerErrorCode } from "../errors";
import { analyticsSettings } from "../db/management";
import { analyticsApis } from "../permissions";
import type { RateLimit } from "../rate-limit";
import { readJsonBody } from "../request-body";
import type { QueryRefusal } from "./check-query";
import type { AnalyticsEngine } from "./engine";
import type { QueryOutcome } from "./query-outcome";

export interface AnalyticsRouteDependencies extends AuthDependencies {
  engine: AnalyticsEngine;
  /** Queries per workspace and window, counted by the root keys' rate limiter under the workspace's own name. */
  quota: RateLimit;
}

export const HOURLY_ANALYTICS_QUOTA: RateLimit = { limit: 1000, windowMs: 60 * 60 * 1000 };

const Body = v.strictObject({ query: v.string("query must be a string") });

const QUERY_FIX =
  'Send {"query": "SELECT …"} over the public tables, e.g. SELECT count(*) AS n FROM key_verifications_v1.';

function bodyErrors(issues: readonly v.BaseIssue<unknown>[]): ErrorDetailEntry[] {
  return issues.map((issue) => {
    const field = issue.path?.map((item) => String(item.key)).join(".");
    if (field === undefined) return { location: "body", message: "The body must be a JSON object", fix: QUERY_FIX };
    if (field !== "query")
      return {
        location: `body.${field}`,
        message: `Unknown field "${field}"`,
        fix: "Remove it: the body accepts only query.",
      };
    return { location: "body.query", message: issue.message, fix: QUERY_FIX };
  });
}

const REFUSALS: Record<QueryRefusal, ServerErrorCode> = {
  query: "err:user:bad_request:invalid_analytics_query",
  query_type: "err:user:bad_request:invalid_analytics_query_type",
  table: "err:user:bad_request:invalid_analytics_table",
  function: "err:user:bad_request:invalid_analytics_function",
  retention: "err:user:bad_request:query_range_exceeds_retention",
};

const LIMITS = {
  timeout: "err:user:unprocessable_entity:query_execution_timeout",
  memory: "err:user:unprocessable_entity:query_memory_limit_exceeded",
  rows: "err:user:unprocessable_entity:query_rows_limit_exceeded",
} as const satisfies Record<string, ServerErrorCode>;

/**
 * A table of ClickHouse's `default` database (the real service's physical tables, e.g. `default.key_verifications_raw_v2`):
 * `default` is a keyword to DuckDB's parser, which would call the query unparsable; the real service refuses the table.
 */
const DEFAULT_DATABASE_TABLE = /\b(?:FROM|JOIN)\s+[`"]?default[`"]?\s*\.\s*[`"]?(\w+)/i;

const UNKNOWN_COLUMN = /^Binder Error: Referenced column "([^"]*)" not found/;

/** DuckDB's words for a column no table has, in the real service's (ClickHouse's) terms: an unknown column. */
function refusalMessage(message: string): string {
  const column = UNKNOWN_COLUMN.exec(message)?.[1];
  return column === undefined ? message : `Unknown column '${column}': ${message}`;
}

function queryRefused(c: Context<ApiEnv>, message: string): Response {
  return errorResponse(c, "err:user:bad_request:invalid_analytics_query", {
    detail: message,
    errors: [{ location: "body.query", message }],
  });
}

function outcomeResponse(c: Context<ApiEnv>, outcome: QueryOutcome): Response {
  if (outcome.kind === "rows") return okJson(`{"meta":{"requestId":"${c.get("requestId")}"},"data":${outcome.json}}`);
  if (outcome.kind === "refused") {
    const message = refusalMessage(outcome.message);
    return errorResponse(c, REFUSALS[outcome.refusal], {
      detail: message,
      errors: [{ location: "body.query", message }],
    });
  }
  if (outcome.kind === "unavailable") {
    return errorResponse(c, "err:svc:application:service_unavailable", {
      detail: outcome.message,
      headers: { "retry-after": String(outcome.retryAfterSeconds) },
    });
  }
  return errorResponse(c, LIMITS[outcome.limit], { detail: outcome.message });
}

/** `POST /v2/analytics.getVerifications`: the workspace's verifications through a checked SQL query. */
export function getVerificationsHandler(deps: AnalyticsRouteDependencies) {
  return async (c: Context<ApiEnv>): Promise<Response> => {
    const rootKey = authenticateRootKey(c, deps);
    if (rootKey instanceof Response) return rootKey;

    const body = await readJsonBody(c.req.raw, MAX_BODY_BYTES);
    if (body.kind === "too_large") {
      return errorResponse(c, "err:user:bad_request:request_body_too_large", { headers: { connection: "close" } });
    }
    if (body.kind === "invalid_json") {
      return errorResponse(c, "err:svc:application:invalid_input", {
        detail: "The request body is not valid JSON",
        errors: [{ location: "body", message: body.message, fix: QUERY_FIX }],
      });
    }
    const parsed = v.safeParse(Body, Array.isArray(body.value) ? null : body.value, { abortPipeEarly: true });
    if (!parsed.success)
      return errorResponse(c, "err:svc:application:invalid_input", { errors: bodyErrors(parsed.issues) });
    const readable = analyticsApis(rootKey.permissions);
    if (readable === undefined) {
      return errorResponse(c, "err:svc:authorization:insufficient_permissions", {
        detail: missingPermissionsDetail([READ_ANALYTICS_PERMISSION]),
      });
    }
    // As the real service: a root key that may read some APIs' analytics sees only their key spaces' rows (an API
    // here is its own key space); one naming no API of the workspace sees none.
    const keySpaceIds =
      readable === "all" ? undefined : readable.filter((apiId) => deps.store.apiBelongsTo(apiId, rootKey.workspaceId));
    // As the real service: an empty or over-long query is an invalid analytics query, told before any parsing.
    const { query } = parsed.output;
    if (query.trim() === "") return queryRefused(c, "No SQL statements found");
    if (Buffer.byteLength(query) > MAX_ANALYTICS_QUERY_LENGTH) {
      return queryRefused(c, `Analytics query exceeds the maximum length of ${MAX_ANALYTICS_QUERY_LENGTH} bytes`);
    }
    const physical = DEFAULT_DATABASE_TABLE.exec(query)?.[1];
    if (physical !== undefined) {
      const message = `Access to table 'default.${physical}' is not allowed: only the public tables may be queried, by their bare names`;
      return errorResponse(c, "err:user:bad_request:invalid_analytics_table", {
        detail: message,
        errors: [{ location: "body.query", message }],
      });
    }

    // As the real service: the workspace's own quota (the server's unless set) and retention (30 days unless set).
    const settings = deps.store.read((db) => analyticsSettings(db, rootKey.workspaceId));
    const quota =
      settings.queriesPerHour === null
        ? deps.quota
        : { limit: settings.queriesPerHour, windowMs: HOURLY_ANALYTICS_QUOTA.windowMs };
    const retryAfterSeconds = deps.rateLimiter.take(`analytics-quota:${rootKey.workspaceId}`, quota);
    if (retryAfterSeconds !== undefined) {
      return errorResponse(c, "err:user:too_many_requests:query_quota_exceeded", {
        detail: `The workspace has used its ${quota.limit} analytics queries for this window`,
        headers: { "retry-after": String(retryAfterSeconds) },
      });
    }
    return outcomeResponse(c, await deps.engine.query(rootKey.workspaceId, query, settings.retentionDays, keySpaceIds));
  };
}
