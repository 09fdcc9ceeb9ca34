import { vValidator } from "@hono/valibot-validator";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import { MAX_BODY_BYTES, type ErrorDetailEntry } from "../../src/lib/contract";
import type { ApiEnv } from "./api-env";
import { ApiRefusal } from "./api-refusal";
import { BODY_CUT_OFF, readBodyText } from "./request-body";

/**
 * An operation's body: its schema (a strict object, or an array of them for an operation that takes a list, such as
 * ratelimit.multiLimit), what to do about each field (of an item, for a list), and a body that works.
 */
export interface BodySpec<TSchema extends v.GenericSchema> {
  schema: TSchema;
  fixes: Record<string, string>;
  /** A valid body, shown in the fix for a body that is not an object (an array) or not JSON. */
  example: string;
}

/** Whether the body is a list of items (the schema is an array) rather than one object. */
function isListBody(spec: BodySpec<v.GenericSchema>): boolean {
  return spec.schema.type === "array";
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[], spec: BodySpec<v.GenericSchema>): ErrorDetailEntry[] {
  const fieldNames = Object.keys(spec.fixes).join(", ");
  const list = isListBody(spec);
  return issues.map((issue) => {
    const fullPath = issue.path?.map((item) => String(item.key)) ?? [];
    // A list's issues name an item first: the fields are what follows.
    const path = list ? fullPath.slice(1) : fullPath;
    // A rule of the list itself (at least one item, at most a hundred) says so in its own words.
    if (fullPath.length === 0 && issue.kind === "validation") return { location: "body", message: issue.message };
    if (fullPath.length === 0) {
      return list
        ? {
            location: "body",
            message: "The body must be a JSON array",
            fix: `Send an array such as ${spec.example}; each item's fields are ${fieldNames}.`,
          }
        : {
            location: "body",
            message: "The body must be a JSON object",
            fix: `Send an object such as ${spec.example}; its fields are ${fieldNames}.`,
          };
    }
    const location = `body.${fullPath.join(".")}`;
    if (path.length === 0) return { location, message: issue.message };
    const field = path[0] ?? "";
    // The field is the caller's word: only the spec's own fixes, never an inherited property such as "constructor".
    const fix = Object.hasOwn(spec.fixes, field) ? spec.fixes[field] : undefined;
    if (issue.expected === "never") {
      const last = path.at(-1) ?? "";
      return path.length === 1
        ? {
            location,
            message: `Unknown field "${last}"`,
            fix: `Remove it: ${list ? "each item" : "the body"} accepts only ${fieldNames}.`,
          }
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

function notJson(spec: BodySpec<v.GenericSchema>, message: string): ApiRefusal {
  return new ApiRefusal("err:svc:application:invalid_input", {
    detail: "The request body is not valid JSON",
    errors: [{ location: "body", message, fix: `Send a JSON object such as ${spec.example}.` }],
  });
}

// Hono's own test of a JSON label (hono/validator), which decides whether its json validator reads a body at all.
const JSON_LABEL = /^application\/([\w.-]+\+)?json$/i;

function isJsonLabelled(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_LABEL.test(contentType.split(";")[0]?.trim() ?? "");
}

/**
 * Reads the body, at most 1 MiB (else 413), as JSON (else 400 with JSON.parse's reason, never the body), whatever
 * its Content-Type, as the real service does; an empty body is `{}`. The validator after it reads the body with
 * c.req.json(), which Hono answers from the text kept here when it is labelled JSON; any other body (another label,
 * none, empty, or streamed without a length) is handed on as the JSON it was read as.
 */
function readBody(spec: BodySpec<v.GenericSchema>): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const body = await readBodyText(c, MAX_BODY_BYTES);
    if (body.kind === "too_large") {
      throw new ApiRefusal("err:user:bad_request:request_body_too_large", { headers: { connection: "close" } });
    }
    if (body.kind === "cut_off") throw notJson(spec, BODY_CUT_OFF);
    const blank = body.text.trim() === "";
    try {
      if (!blank) JSON.parse(body.text);
    } catch (error) {
      throw notJson(spec, withoutQuotedInput(error instanceof Error ? error.message : String(error)));
    }
    if (blank || !body.kept || !isJsonLabelled(c.req.header("content-type"))) {
      const headers = new Headers(c.req.raw.headers);
      headers.set("content-type", "application/json");
      c.req.raw = new Request(c.req.url, { method: c.req.method, headers, body: blank ? "{}" : body.text });
      c.req.bodyCache = {};
    }
    await next();
  };
}

// valibot takes an array for an object (a strict one with no required field takes `[]`): the body must be a plain one.
const JSON_OBJECT = v.custom<unknown>(
  (input) => typeof input === "object" && input !== null && !Array.isArray(input),
  "The body must be a JSON object",
);
const JSON_ARRAY = v.custom<unknown>((input) => Array.isArray(input), "The body must be a JSON array");

/**
 * An operation's body, declared: read as readBody says, then validated by @hono/valibot-validator against the
 * spec's schema (each field's first problem), into c.req.valid("json"). A body the schema refuses is the real
 * service's 400, with one errors[] entry per problem and the spec's fix for each field.
 */
export function jsonBody<TSchema extends v.GenericSchema>(spec: BodySpec<TSchema>) {
  const schema = v.config(v.pipe(isListBody(spec) ? JSON_ARRAY : JSON_OBJECT, spec.schema), { abortPipeEarly: true });
  return [
    readBody(spec),
    vValidator("json", schema, (result, c: Context<ApiEnv>) => {
      if (result.success) return;
      // The real service's words for a body its schema refuses (its route tests check them).
      throw new ApiRefusal("err:svc:application:invalid_input", {
        detail: `POST request body for '${c.req.path}' failed to validate schema`,
        errors: describeIssues(result.issues, spec),
      });
    }),
  ] as const;
}
