import * as v from "valibot";
import { GET_VERIFICATIONS_PATH } from "../contract";
import { callOperation } from "./call-operation";
import { PlainObject } from "./schemas";
import type { Connection, RequestOptions } from "./transport";

/** A row of the query's result: its columns are whatever the query's SELECT names. */
export type VerificationRow = Record<string, unknown>;

/** `analytics.getVerifications`: SQL over the verification tables (docs/api.md#analytics); `data` is the rows. */
export async function getVerifications(
  connection: Connection,
  query: string,
  options: RequestOptions = {},
): Promise<{ rows: VerificationRow[]; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    GET_VERIFICATIONS_PATH,
    { query },
    v.array(PlainObject),
    options,
  );
  return { rows: data, requestId };
}
