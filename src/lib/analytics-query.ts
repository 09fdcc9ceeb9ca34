import { UnexpectedResponseError } from "./api-errors";
import { getVerifications } from "./api/get-verifications";
import type { Connection, RequestOptions } from "./api/transport";
import { WrongShapeError } from "./analytics-rows";
import { GET_VERIFICATIONS_PATH } from "./contract";

/** An analytics operation: the key verifications' (the default), or the rate-limit decisions' (api/get-ratelimits.ts). */
export interface AnalyticsOperation {
  run: (
    connection: Connection,
    sql: string,
    options: RequestOptions,
  ) => Promise<{ rows: readonly unknown[]; requestId: string | null }>;
  path: string;
}

const VERIFICATIONS: AnalyticsOperation = { run: getVerifications, path: GET_VERIFICATIONS_PATH };

/**
 * Runs one analytics query and parses its rows. Rows of the wrong shape are an UnexpectedResponseError that
 * names the row and field, so a page says why where the numbers would be.
 */
export async function runAnalytics<T>(
  connection: Connection,
  sql: string,
  parse: (rows: readonly unknown[]) => T,
  options: RequestOptions = {},
  operation: AnalyticsOperation = VERIFICATIONS,
): Promise<T> {
  const { rows, requestId } = await operation.run(connection, sql, options);
  try {
    return parse(rows);
  } catch (error) {
    if (!(error instanceof WrongShapeError)) throw error;
    throw new UnexpectedResponseError({
      status: 200,
      contentType: "application/json",
      reason: "not-envelope",
      bodyExcerpt: `The analytics rows are not what the query asked for. ${error.message}`,
      requestId,
      url: `${connection.baseUrl}${operation.path}`,
    });
  }
}
