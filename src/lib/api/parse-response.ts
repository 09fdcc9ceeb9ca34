/**
 * What an answer means: the success envelope's `data` through an operation's schema, the error envelope as an
 * ApiError, or an UnexpectedResponseError that says what came instead. Everything echoed is scrubbed of the key.
 */
import * as v from "valibot";
import {
  ApiError,
  BODY_EXCERPT_MAX,
  UnexpectedResponseError,
  truncate,
  type UnexpectedResponseReason,
} from "../api-errors";
import type { ErrorDetailEntry, Pagination } from "../contract";
import { redactResponseBody } from "../request-journal";
import {
  ErrorDetailEntrySchema,
  ErrorEnvelopeSchema,
  ErrorFieldsSchema,
  MetaSchema,
  PaginationSchema,
  PlainObject,
  lenient,
} from "./schemas";
import type { Received } from "./transport";

/** A success envelope, parsed. */
export interface Answer<T> {
  data: T;
  requestId: string | null;
  pagination: Pagination | undefined;
}

/** `{meta, data, pagination?}` with `data` through `dataSchema`; any other answer is thrown as a KeyscopeError. */
export function parseAnswer<TSchema extends v.GenericSchema>(
  received: Received,
  dataSchema: TSchema,
): Answer<v.InferOutput<TSchema>> {
  const parsed = parseBody(received);
  if (parsed.kind === "unexpected") throw unexpected(received, parsed.reason, null);

  const apiError = toApiError(received, parsed.value);
  if (apiError) throw apiError;

  const success = received.status >= 200 && received.status < 300;
  const envelope = v.safeParse(
    v.looseObject({ meta: MetaSchema, data: dataSchema, pagination: lenient(PaginationSchema) }),
    parsed.value,
  );
  if (!success || !envelope.success) throw unexpected(received, "not-envelope", parsed.value);
  const { data, meta, pagination } = envelope.output;
  return {
    data,
    requestId: meta?.requestId ?? received.headerRequestId,
    pagination: pagination && {
      hasMore: pagination.hasMore,
      ...(pagination.cursor === undefined ? {} : { cursor: pagination.cursor }),
    },
  };
}

type Parsed = { kind: "json"; value: unknown } | { kind: "unexpected"; reason: UnexpectedResponseReason };

function parseBody(received: Received): Parsed {
  const trimmed = received.text.trim();
  if (trimmed === "") return { kind: "unexpected", reason: "empty" };
  if (!trimmed.startsWith("<")) {
    try {
      return { kind: "json", value: JSON.parse(trimmed) as unknown };
    } catch {
      // Not JSON: what it is instead decides the reason below.
    }
  }
  const contentType = received.contentType?.toLowerCase() ?? "";
  if (contentType.includes("html") || trimmed.startsWith("<")) return { kind: "unexpected", reason: "html" };
  const looksJson = /[/+]json\b/.test(contentType) || trimmed.startsWith("{") || trimmed.startsWith("[");
  return { kind: "unexpected", reason: looksJson ? "invalid-json" : "not-envelope" };
}

/**
 * The error envelope `{meta, error: {status, title, detail, type, errors?}}` as an ApiError, on any status.
 * An RFC 9457 problem document (the same fields at the top level) counts too, when it says it is one.
 */
function toApiError(received: Received, value: unknown): ApiError | null {
  const envelope = v.safeParse(ErrorEnvelopeSchema, value);
  let fields: v.InferOutput<typeof ErrorFieldsSchema>;
  let requestId: string | undefined;
  if (envelope.success) {
    fields = envelope.output.error;
    requestId = envelope.output.meta?.requestId;
  } else {
    const problem = v.safeParse(v.pipe(PlainObject, ErrorFieldsSchema), value);
    if (!problem.success) return null;
    const saysProblem = received.contentType?.toLowerCase().includes("problem+json") ?? false;
    const { type, title, status } = problem.output;
    if (!saysProblem && (type === undefined || title === undefined || status === undefined)) return null;
    fields = problem.output;
  }
  if (fields.type === undefined && fields.title === undefined && fields.detail === undefined) return null;

  // The HTTP status is the truth, except for an error envelope on a 2xx, which says what it is itself.
  const status = received.status >= 400 || fields.status === undefined ? received.status : fields.status;
  const title = received.scrub(fields.title ?? (received.statusText || reasonPhrase(status)));
  const errors = (fields.errors ?? []).flatMap((entry): ErrorDetailEntry[] => {
    const parsed = v.safeParse(ErrorDetailEntrySchema, entry);
    if (!parsed.success) return [];
    const { location, message, fix } = parsed.output;
    const scrubbed: ErrorDetailEntry = { location: received.scrub(location), message: received.scrub(message) };
    if (fix !== undefined) scrubbed.fix = received.scrub(fix);
    return [scrubbed];
  });
  return new ApiError({
    status,
    title,
    detail: fields.detail === undefined ? title : received.scrub(fields.detail),
    type: received.scrub(fields.type ?? ""),
    requestId: requestId === undefined ? received.headerRequestId : received.scrub(requestId),
    errors,
    retryAfterSeconds: received.retryAfterSeconds,
    keySent: received.keySent,
    url: received.url,
    redirectedTo: received.redirectedTo,
    receivedAt: received.receivedAt,
  });
}

function unexpected(received: Received, reason: UnexpectedResponseReason, json: unknown): UnexpectedResponseError {
  const meta = v.safeParse(v.looseObject({ meta: MetaSchema }), json);
  const requestId = meta.success ? meta.output.meta?.requestId : undefined;
  return new UnexpectedResponseError({
    status: received.status,
    contentType: received.contentType,
    reason,
    bodyExcerpt: excerpt(received, reason),
    requestId: requestId === undefined ? received.headerRequestId : received.scrub(requestId),
    url: received.url,
  });
}

/**
 * Plain text a person can read: an HTML page reduced to its words; control characters dropped; the key scrubbed,
 * and a new key's secret replaced as in the journal (a createKey answer whose data fails its schema still has it).
 */
function excerpt(received: Received, reason: UnexpectedResponseReason): string {
  // Bound the work on hostile bodies: the excerpt only ever needs the beginning.
  let text = received.scrub(redactResponseBody(received.text)).slice(0, 64 * 1024);
  if (reason === "html") {
    text = text
      .replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, " ")
      .replace(/<!--[\s\S]*?(-->|$)/g, " ")
      .replace(/<[^>]*>?/g, " ")
      .replace(/&nbsp;/gi, " ")
      .replace(/&lt;/gi, "<")
      .replace(/&gt;/gi, ">")
      .replace(/&quot;/gi, '"')
      .replace(/&#39;/gi, "'")
      .replace(/&amp;/gi, "&");
  }
  text = text
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return truncate(received.scrub(text), BODY_EXCERPT_MAX);
}

const REASON_PHRASES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? `HTTP ${status}`;
}
