import { UPDATE_CREDITS_PATH, type KeyCredits } from "../contract";
import { callOperation } from "./call-operation";
import { CreditsSchema } from "./schemas";
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
  // The same credits a Key carries, parsed by the same schema.
  const { data, requestId } = await callOperation(
    connection,
    UPDATE_CREDITS_PATH,
    { keyId, ...change },
    CreditsSchema,
    options,
  );
  return { credits: data, requestId };
}
