/**
 * From what the probes saw to the one cause behind it, in one sentence, with the fix. Pure: every
 * combination is a row in a table-driven test. Nothing here ever sees the key, only what came back.
 */
import {
  ApiError,
  InvalidConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  type KeyscopeError,
} from "../../../lib/api-errors";
import { httpOriginOf } from "../../../lib/safe-url";
import { catalogKeyOf, describeError } from "../error-catalog";
import type { ApiOutcome, ProbeResults } from "./probes";
import { listKeysCurl } from "../curl-command";
import { baseUrlWarnings } from "../../../lib/check-base-url";

export type Cause =
  | "all-good"
  | "no-key"
  | "server-down"
  | "offline"
  | "insecure-blocked"
  | "cors"
  | "redirect"
  | "stripped"
  | "malformed"
  | "unknown-key"
  | "wrong-environment"
  | "key-disabled"
  | "no-permission"
  | "api-not-found"
  | "api-id-needed"
  | "rate-limited"
  | "server-error"
  | "timeout"
  | "not-the-api"
  | "open-api"
  | "refused";

/** What check-key found in the key that was tested, handed in by the app (this feature cannot import it). */
export interface KeyPreflight {
  ok: boolean;
  /** Why the key cannot be right as pasted, when not ok. */
  reason: string | null;
  /** It started with `Bearer` (or `Authorization: Bearer`). */
  hadBearerPrefix: boolean;
}

export interface OtherEnvironmentResult {
  id: string;
  name: string;
  outcome: ApiOutcome;
}

export interface DiagnoseContext {
  baseUrl: string;
  /** The API ID under test, for the commands the finding suggests. */
  apiId?: string | undefined;
  pageOrigin: string;
  preflight: KeyPreflight | null;
  /** The pasted text was sent as the whole Authorization value rather than as the key after `Bearer `. */
  asHeader: boolean;
  /** How many other configured environments there are to try the key in. */
  otherEnvironmentCount: number;
  /** Results of trying the key in other environments, after the user asked for it. */
  otherEnvironments: readonly OtherEnvironmentResult[];
}

export interface Finding {
  cause: Cause;
  tone: "ok" | "info" | "warning" | "danger";
  /** The cause, in one sentence. */
  summary: string;
  /** What to do about it, in one sentence. */
  fix: string;
  command: { caption: string; text: string } | null;
  retryAfterSeconds: number | null;
  /** Offer to try the key in the other environments (an explicit click). */
  offerOtherEnvironments: boolean;
  /** Another environment where the key works, to offer switching to. */
  workingEnvironment: { id: string; name: string; count: number } | null;
}

function finding(cause: Cause, tone: Finding["tone"], summary: string, fix: string, extra: Partial<Finding> = {}): Finding {
  return {
    cause,
    tone,
    summary,
    fix,
    command: null,
    retryAfterSeconds: null,
    offerOtherEnvironments: false,
    workingEnvironment: null,
    ...extra,
  };
}

function originOf(baseUrl: string, pageOrigin: string): string {
  return httpOriginOf(baseUrl) ?? (baseUrl === "" || baseUrl.startsWith("/") ? pageOrigin : baseUrl);
}

function keysText(count: number, hasMore: boolean): string {
  return hasMore ? `at least ${count} keys` : `${count} ${count === 1 ? "key" : "keys"}`;
}

/** A code's `<category>:<kind>`, whatever its system. */
function kindOf(error: ApiError): string | null {
  return catalogKeyOf(error.code);
}

function malformedWhy(context: DiagnoseContext): string {
  const preflight = context.preflight;
  if (context.asHeader && preflight && !preflight.hadBearerPrefix) {
    return "the value has no `Bearer ` prefix, and the header must be the word Bearer, one space, then the key.";
  }
  if (preflight && !preflight.ok && preflight.reason) return preflight.reason;
  if (!context.asHeader && preflight?.hadBearerPrefix) {
    return "the pasted text already starts with “Bearer”, so the header became “Bearer Bearer …”.";
  }
  return "the header must be exactly the word Bearer (capital B), one space, then the key.";
}

function cors(origin: string, context: DiagnoseContext): Finding {
  return finding(
    "cors",
    "danger",
    `The API at ${origin} answers, but it sends no CORS headers for this page (${context.pageOrigin}), so the browser hides every answer from Keyscope.`,
    "Serve Keyscope on the API's origin through the reference server's proxy mode, and open the address it prints.",
    { command: { caption: "Proxy mode: Keyscope and the API on one origin", text: `npm start -- --upstream ${origin}` } },
  );
}

function down(origin: string, offline: boolean): Finding {
  if (offline) {
    return finding("offline", "danger", "This browser is offline, so no request can reach the API.", "Reconnect to the network, then run the diagnostics again.");
  }
  return finding(
    "server-down",
    "danger",
    `Nothing answers at ${origin}: the server is down, or the base URL points at the wrong host or port.`,
    "Start the API (or check that it runs and accepts connections), then check the base URL's host and port.",
  );
}

/** The cause an error of the with-key (or, lacking a key, the without-key) request points at. */
function fromError(error: KeyscopeError, keySent: boolean, origin: string, context: DiagnoseContext): Finding {
  if (error instanceof ApiError) {
    const redirectOrigin = error.redirectedTo ? httpOriginOf(error.redirectedTo) : null;
    if (keySent && redirectOrigin !== null && redirectOrigin !== origin) {
      return finding(
        "redirect",
        "danger",
        `The base URL redirects to ${redirectOrigin}, another origin, and browsers drop the Authorization header when they follow such a redirect, so the key never arrives.`,
        `Use the address it redirects to as the base URL (${redirectOrigin}), or remove the redirect.`,
      );
    }
    if (error.missingCredentials && keySent) {
      return finding(
        "stripped",
        "danger",
        "Keyscope sent the key, but the API says no credentials arrived: a proxy or gateway between this browser and the API strips the Authorization header.",
        "Configure the proxy or gateway in front of the API to pass the Authorization header on unchanged (nginx: no proxy_set_header Authorization override; Apache: CGIPassAuth On).",
        { command: { caption: "Check by hand from the proxy's machine", text: listKeysCurl(context.baseUrl, context.apiId) } },
      );
    }
    switch (kindOf(error)) {
      case "authentication:malformed":
        return finding(
          "malformed",
          "danger",
          `The API refused the Authorization header as malformed: ${malformedWhy(context)}`,
          "Paste only the key (Keyscope adds “Bearer ” itself), copied again without spaces, quotes or line breaks.",
        );
      case "authentication:key_not_found":
        return finding(
          "unknown-key",
          "danger",
          `The API at ${origin} does not know this key: it was never created there, or it was revoked or has expired.`,
          context.otherEnvironmentCount > 0
            ? "Try the key in your other environments below, or create a new root key for this one."
            : "Copy the right key again, or create a new root key; if it belongs to another environment, use that environment's base URL.",
          { offerOtherEnvironments: context.otherEnvironmentCount > 0 },
        );
      case "authorization:key_disabled":
        return finding("key-disabled", "danger", "The key exists, but it is disabled, so the API refuses every request made with it.", "Enable the key again where it is managed, or use another root key.");
      case "authorization:insufficient_permissions":
        return finding("no-permission", "danger", "The API knows the key, but the key lacks the permission to read keys.", "Give the root key `api.*.read_key` (or `api.<apiId>.read_key`), or use a root key that has it.");
      case "data:api_not_found":
        return finding("api-not-found", "danger", "The API answered 404 for the API ID: that API does not exist, or this key may not read it.", "Check the API ID (it starts with api_) and that the key may read keys of that API.");
      case "too_many_requests:rate_limited":
        return finding(
          "rate-limited",
          "warning",
          error.retryAfterSeconds === null
            ? "The key is rate limited: it has used up its requests for now, and the API did not say for how long."
            : `The key is rate limited: the API asks to wait ${error.retryAfterSeconds} s before the next request.`,
          "Wait, then run the diagnostics again; if other programs share this root key, give Keyscope a key of its own.",
          { retryAfterSeconds: error.retryAfterSeconds },
        );
      default:
        break;
    }
    if (error.missingCredentials) {
      return finding("no-key", "info", `The API at ${origin} answers and asks for a key, as it should.`, "Enter a key to test, then run the diagnostics again.");
    }
    if (error.status >= 500) {
      return finding(
        "server-error",
        "danger",
        `The API failed with an error of its own (HTTP ${error.status}); nothing in the key or the request caused it.`,
        "Retry in a moment; if it keeps failing, report it to whoever runs the API with the request id below.",
      );
    }
    const described = describeError(error, { baseUrl: context.baseUrl, pageOrigin: context.pageOrigin });
    return finding(
      "refused",
      "danger",
      `The API refused the request: ${error.title} (HTTP ${error.status}${error.code ? `, ${error.code}` : ""}).`,
      (described.fixSteps[0] ?? "See the error's documentation.").replace(/`/g, ""),
    );
  }
  if (error instanceof NetworkError) return error.crossOrigin && !error.offline ? cors(origin, context) : down(origin, error.offline);
  if (error instanceof TimeoutError) {
    return finding(
      "timeout",
      "danger",
      `The API at ${origin} did not answer within ${Math.round(error.timeoutMs / 1000)} s.`,
      "Check that the API and anything in front of it (a proxy, a VPN) are up, then run the diagnostics again.",
    );
  }
  if (error instanceof InvalidConnectionError) {
    if (error.field === "apiId") {
      return finding(
        "api-id-needed",
        "info",
        "The server has no keys.listKeys operation: it lists keys per API like the real service, so Keyscope needs an API ID.",
        "Enter the API ID (it starts with api_) on the key-entry page or in the environment, then run the diagnostics again.",
      );
    }
    if (error.field === "apiKey") {
      return finding(
        "malformed",
        "danger",
        `The key was not sent, because no HTTP header can carry it as pasted: ${context.preflight?.reason ?? "it contains line breaks or characters outside Latin-1."}`,
        "Copy the key again from where it was created, alone and on one line.",
      );
    }
    return finding("not-the-api", "danger", `${error.message} Nothing was sent.`, "Correct the base URL on the key-entry page.");
  }
  if (error instanceof UnexpectedResponseError) {
    return finding(
      "not-the-api",
      "danger",
      `Something answered at ${origin} that is not the API (HTTP ${error.status}, ${error.reason === "html" ? "a web page" : "not the API's format"}): the base URL points at another server, or a proxy answers for it.`,
      "Check the base URL: it should be the address where the API answers POST /v2/keys.listKeys.",
    );
  }
  return finding("refused", "danger", "Keyscope ran into a problem of its own while testing.", "Run the diagnostics again; if it repeats, report it with this report.");
}

/**
 * Plain http to another computer: the browser refuses it from an https page (mixed content), and Keyscope's own
 * pages allow plain http only to this computer (their CSP), so nothing was sent at all.
 */
function refusedByPage(origin: string, pageOrigin: string): boolean {
  const warnings = baseUrlWarnings(origin, pageOrigin);
  return warnings.some((warning) => warning !== "cross-origin");
}

export function diagnose(results: ProbeResults, context: DiagnoseContext): Finding {
  const origin = originOf(context.baseUrl, context.pageOrigin);
  const { reach, withoutKey, withKey } = results;
  if (reach.kind === "unreachable" && !reach.offline && refusedByPage(origin, context.pageOrigin)) {
    return finding(
      "insecure-blocked",
      "danger",
      `The browser sent nothing to ${origin}: this page may call plain http only on this computer, so a root key never travels unencrypted over the network.`,
      "Use the API's https:// address, or serve Keyscope next to the API with the proxy mode and open that.",
      { command: { caption: "Proxy mode: Keyscope and the API on one origin", text: `npm start -- --upstream ${origin}` } },
    );
  }
  if (reach.kind === "unreachable") return down(origin, reach.offline);
  if (reach.kind === "cors-blocked") return cors(origin, context);

  if (withKey !== null) {
    if (withKey.kind === "keys") {
      return finding("all-good", "ok", `All good: the key works and lists ${keysText(withKey.count, withKey.hasMore)}.`, "Nothing to fix.");
    }
    const found = fromError(withKey.error, true, origin, context);
    if (found.cause !== "unknown-key") return found;
    const working = context.otherEnvironments.find((result) => result.outcome.kind === "keys");
    if (working && working.outcome.kind === "keys") {
      return finding(
        "wrong-environment",
        "warning",
        `This key belongs to ${working.name}: the API at ${origin} does not know it, but ${working.name} accepts it and lists ${keysText(working.outcome.count, working.outcome.hasMore)}.`,
        `Switch to ${working.name}, or use a key made for this environment.`,
        { workingEnvironment: { id: working.id, name: working.name, count: working.outcome.count } },
      );
    }
    return found;
  }

  if (withoutKey === null) return finding("no-key", "info", `The API at ${origin} answers.`, "Enter a key to test, then run the diagnostics again.");
  if (withoutKey.kind === "keys") {
    return finding(
      "open-api",
      "warning",
      `The API at ${origin} lists ${keysText(withoutKey.count, withoutKey.hasMore)} without any key: it does not check credentials.`,
      "If this is not a local test server, protect it: anyone who can reach it can read its keys.",
    );
  }
  return fromError(withoutKey.error, false, origin, context);
}

/** Status, code and request id of a probe's answer, for its step and the report. */
export function outcomeFacts(outcome: ApiOutcome): { status: number | null; code: string | null; requestId: string | null } {
  if (outcome.kind === "keys") return { status: 200, code: null, requestId: outcome.requestId };
  const error = outcome.error;
  if (error instanceof ApiError) return { status: error.status, code: error.code, requestId: error.requestId };
  if (error instanceof UnexpectedResponseError) return { status: error.status, code: null, requestId: error.requestId };
  return { status: null, code: null, requestId: null };
}

