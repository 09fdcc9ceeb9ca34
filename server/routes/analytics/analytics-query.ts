import * as v from "valibot";
import { MAX_ANALYTICS_QUERY_LENGTH } from "../../../src/lib/contract";
import type { QueryRefusal } from "../../analytics/check-query";
import type { AnalyticsEngine } from "../../analytics/engine";
import type { QueryOutcome } from "../../analytics/query-outcome";
import type { RateLimit } from "../../auth/rate-limit";
import { analyticsSettings, type AnalyticsSettings } from "../../db/workspaces";
import { dataJsonAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { ServerErrorCode } from "../../http/errors";
import type { BodySpec } from "../../http/json-body";

/**
 * What `analytics.getVerifications` and `analytics.getRatelimits` share, as the real service's analytics.Execute does:
 * the body, the checks told before any parsing, the workspace's query quota (one for both operations) and its
 * retention, and the engine's answer as the envelope.
 */

export interface AnalyticsRouteDependencies extends ApiDependencies {
  engine: AnalyticsEngine;
  /** Queries per workspace and window, counted by the root keys' rate limiter under the workspace's own name. */
  quota: RateLimit;
}

export const HOURLY_ANALYTICS_QUOTA: RateLimit = { limit: 1000, windowMs: 60 * 60 * 1000 };

/** The body `{"query": "SELECT …"}`, its fix naming one of the operation's tables. */
export function queryBody(table: string) {
  return {
    schema: v.strictObject({ query: v.string("query must be a string") }),
    fixes: {
      query: `Send {"query": "SELECT …"} over the public tables, e.g. SELECT count(*) AS n FROM ${table}.`,
    },
    example: `{"query": "SELECT count(*) AS n FROM ${table}"}`,
  } satisfies BodySpec<v.GenericSchema>;
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

function queryRefused(message: string): ApiRefusal {
  return new ApiRefusal("err:user:bad_request:invalid_analytics_query", {
    detail: message,
    errors: [{ location: "body.query", message }],
  });
}

/**
 * As the real service, before the query is parsed: an empty or over-long query is an invalid analytics query, a
 * physical table an invalid table.
 */
export function checkQueryText(query: string): void {
  if (query.trim() === "") throw queryRefused("No SQL statements found");
  if (Buffer.byteLength(query) > MAX_ANALYTICS_QUERY_LENGTH) {
    throw queryRefused(`Analytics query exceeds the maximum length of ${MAX_ANALYTICS_QUERY_LENGTH} bytes`);
  }
  const physical = DEFAULT_DATABASE_TABLE.exec(query)?.[1];
  if (physical !== undefined) {
    const message = `Access to table 'default.${physical}' is not allowed: only the public tables may be queried, by their bare names`;
    throw new ApiRefusal("err:user:bad_request:invalid_analytics_table", {
      detail: message,
      errors: [{ location: "body.query", message }],
    });
  }
}

/**
 * The workspace's analytics settings (its retention), once a query of its quota is taken: as the real service, the
 * workspace's own quota (the server's unless set), shared by both analytics operations.
 */
export function takeQuota(deps: AnalyticsRouteDependencies, workspaceId: string): AnalyticsSettings {
  const settings = deps.store.read((db) => analyticsSettings(db, workspaceId));
  const quota =
    settings.queriesPerHour === null
      ? deps.quota
      : { limit: settings.queriesPerHour, windowMs: HOURLY_ANALYTICS_QUOTA.windowMs };
  const retryAfterSeconds = deps.rateLimiter.take(`analytics-quota:${workspaceId}`, quota);
  if (retryAfterSeconds !== undefined) {
    throw new ApiRefusal("err:user:too_many_requests:query_quota_exceeded", {
      detail: `The workspace has used its ${quota.limit} analytics queries for this window`,
      headers: { "retry-after": String(retryAfterSeconds) },
    });
  }
  return settings;
}

/** The engine's answer as the envelope: the rows, or the refusal, limit or unavailability it tells. */
export function outcomeResponse(c: Parameters<typeof dataJsonAnswer>[0], outcome: QueryOutcome): Response {
  if (outcome.kind === "rows") return dataJsonAnswer(c, outcome.json);
  if (outcome.kind === "refused") {
    const message = refusalMessage(outcome.message);
    throw new ApiRefusal(REFUSALS[outcome.refusal], { detail: message, errors: [{ location: "body.query", message }] });
  }
  if (outcome.kind === "unavailable") {
    throw new ApiRefusal("err:svc:application:service_unavailable", {
      detail: outcome.message,
      headers: { "retry-after": String(outcome.retryAfterSeconds) },
    });
  }
  throw new ApiRefusal(LIMITS[outcome.limit], { detail: outcome.message });
}
