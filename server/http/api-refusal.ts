import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ErrorDetailEntry } from "../../src/lib/contract";
import { newId } from "../db/ids";
import type { AppEnv } from "./api-env";
import { errorEnvelopeJson, errorHeaders, SERVER_ERROR_KINDS, type ServerErrorCode } from "./errors";

export interface RefusalExtras {
  /** Replaces the kind's standard detail when the case needs a more precise one. */
  detail?: string;
  errors?: ErrorDetailEntry[];
  headers?: Record<string, string>;
  /** For a 500: the error itself, which the server's log reports while the client reads only `detail`. */
  cause?: unknown;
}

/**
 * Every answer but success, as Hono's HTTPException with the contract's code: thrown wherever it is found (a
 * middleware, a handler, a transaction, which it undoes) and rendered once, as the error envelope, by the app's
 * onError (app.ts). A 500 is the unexpected-error envelope whose detail is the real service's words for the failure.
 */
export class ApiRefusal extends HTTPException {
  readonly detail: string;
  readonly errors: ErrorDetailEntry[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ServerErrorCode,
    extras: RefusalExtras = {},
  ) {
    const detail = extras.detail ?? SERVER_ERROR_KINDS[code].detail;
    super(SERVER_ERROR_KINDS[code].status, { message: detail, cause: extras.cause });
    this.detail = detail;
    this.errors = extras.errors;
    this.headers = extras.headers;
  }
}

/** The 400 of a rule the schema cannot say (a field that needs another), in the real service's words. */
export function invalidInput(location: string, message: string): ApiRefusal {
  return new ApiRefusal("err:svc:application:invalid_input", { detail: message, errors: [{ location, message }] });
}

/** The envelope of a refusal, with its request id (made here when none was: the proxy makes ids for its own errors). */
export function refusalResponse(c: Context<AppEnv>, refusal: ApiRefusal, fallbackDocsUrl: string): Response {
  const requestId = c.get("requestId") ?? newId("req");
  c.set("requestId", requestId);
  const extras = {
    detail: refusal.detail,
    ...(refusal.errors !== undefined && { errors: refusal.errors }),
  };
  const json = errorEnvelopeJson(requestId, c.get("docsUrl") ?? fallbackDocsUrl, refusal.code, extras);
  return c.body(json, refusal.status, errorHeaders(refusal.code, refusal.headers));
}
