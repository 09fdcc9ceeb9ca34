import type * as v from "valibot";
import { parseAnswer, type Answer } from "./parse-response";
import { send, type Connection, type RequestOptions } from "./transport";

/** `POST {baseUrl}{path}` with `body`, its `data` parsed with `dataSchema`; every failure is a KeyscopeError. */
export async function callOperation<TSchema extends v.GenericSchema>(
  connection: Connection,
  path: string,
  body: Record<string, unknown>,
  dataSchema: TSchema,
  options: RequestOptions = {},
): Promise<Answer<v.InferOutput<TSchema>>> {
  return parseAnswer(await send(connection, path, body, options), dataSchema);
}
