import type { Context } from "hono";
import * as v from "valibot";
import { MAX_BODY_BYTES, type ErrorDetailEntry } from "../../src/lib/contract";
import type { ApiEnv } from "./api-env";
import { errorResponse } from "./errors";
import { readJsonBody } from "./request-body";

/** An operation's body: its schema (a strict object), what to do about each field, and a body that works. */
export interface BodySpec<TSchema extends v.GenericSchema> {
  schema: TSchema;
  fixes: Record<string, string>;
  /** A valid body, shown in the fix for a body that is not an object or not JSON. */
  example: string;
}

export type BodyResult<T> = { ok: true; value: T } | { ok: false; response: Response };

function describeIssues(issues: readonly v.BaseIssue<unknown>[], spec: BodySpec<v.GenericSchema>): ErrorDetailEntry[] {
  const fieldNames = Object.keys(spec.fixes).join(", ");
  return issues.map((issue) => {
    const path = issue.path?.map((item) => String(item.key));
    if (path === undefined || path.length === 0) {
      return {
        location: "body",
        message: "The body must be a JSON object",
        fix: `Send an object such as ${spec.example}; its fields are ${fieldNames}.`,
      };
    }
    const location = `body.${path.join(".")}`;
    const field = path[0] ?? "";
    // The field is the caller's word: only the spec's own fixes, never an inherited property such as "constructor".
    const fix = Object.hasOwn(spec.fixes, field) ? spec.fixes[field] : undefined;
    if (issue.expected === "never") {
      const last = path.at(-1) ?? "";
      return path.length === 1
        ? { location, message: `Unknown field "${last}"`, fix: `Remove it: the body accepts only ${fieldNames}.` }
        : { location, message: `Unknown field "${last}" in ${field}`, fix: `Remove it. ${fix ?? ""}`.trim() };
    }
    return fix === undefined ? { location, message: issue.message } : { location, message: issue.message, fix };
  });
}

/**
 * JSON.parse's message quotes the start of the body (`Unexpected token 's', "{"key": sk_live_ab"... is not valid
 * JSON`): a body may hold a secret (verifyKey, whoami), so the answer keeps only what went wrong and where.
 */
function withoutQuotedInput(message: string): string {
  const quote = message.indexOf(', "');
  return quote === -1 ? message : `${message.slice(0, quote)} (the body is not valid JSON)`;
}

/**
 * Reads and validates an operation's JSON body. Every failure is the contract's envelope: 413 for a body over
 * 1 MiB, 400 `invalid_input` with one `errors[]` entry per problem otherwise.
 */
export async function readValidBody<TSchema extends v.GenericSchema>(
  c: Context<ApiEnv>,
  spec: BodySpec<TSchema>,
): Promise<BodyResult<v.InferOutput<TSchema>>> {
  const body = await readJsonBody(c.req.raw, MAX_BODY_BYTES);
  if (body.kind === "too_large") {
    return {
      ok: false,
      response: errorResponse(c, "err:user:bad_request:request_body_too_large", { headers: { connection: "close" } }),
    };
  }
  if (body.kind === "invalid_json") {
    return {
      ok: false,
      response: errorResponse(c, "err:svc:application:invalid_input", {
        detail: "The request body is not valid JSON",
        errors: [
          {
            location: "body",
            message: withoutQuotedInput(body.message),
            fix: `Send a JSON object such as ${spec.example}.`,
          },
        ],
      }),
    };
  }
  // valibot accepts an array as an object; the body must be a plain one.
  const result = v.safeParse(spec.schema, Array.isArray(body.value) ? null : body.value, { abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  return {
    ok: false,
    // The real service's words for a body its schema refuses (its route tests check them).
    response: errorResponse(c, "err:svc:application:invalid_input", {
      detail: `POST request body for '${new URL(c.req.url).pathname}' failed to validate schema`,
      errors: describeIssues(result.issues, spec),
    }),
  };
}
