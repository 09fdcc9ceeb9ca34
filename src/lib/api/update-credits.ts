import { UPDATE_CREDITS_PATH, type KeyCredits } from "../contract";
import { callOperation } from "./call-operation";
import { CreditsAnswerSchema } from "./key-changes";
import type { Connection, RequestOptions } from "./transport";

/** set: the new remaining (null: unlimited); increment / decrement: by how many. */
export type CreditsChange =
  { operation: "set"; value: number | null } | { operation: "increment" | "decrement"; value: number };

/** `keys.updateCredits`: changes the remaining credits and answers what they are now. */
export async function updateCredits(
  connection: Connection,
  keyId: string,
  change: CreditsChange,
  options: RequestOptions = {},
): Promise<{ credits: KeyCredits; requestId: string | null }> {
  const { data, requestId } = await callOperation(
    connection,
    UPDATE_CREDITS_PATH,
    { keyId, ...change },
    CreditsAnswerSchema,
    options,
  );
  const credits: KeyCredits = { remaining: data.remaining };
  if (data.refill) {
    credits.refill = { interval: data.refill.interval, amount: data.refill.amount };
    if (data.refill.refillDay !== undefined) credits.refill.refillDay = data.refill.refillDay;
  }
  return { credits, requestId };
}
