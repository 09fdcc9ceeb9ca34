/**
 * From what the probes saw to the one cause behind it, with the fix. Only the findings that need several probes
 * are worded here (a redirect, another environment, an open API, plain http refused by the page, CORS, a server
 * that is down, a key refused by key entry's checks); every other sentence is the error catalog's. Pure: every
 * combination is a row in a table-driven test. Nothing here ever sees the key, only what came back.
 */
import { ApiError, UnexpectedResponseError, type KeyscopeError } from "@/lib/api-errors";
import type { KeyCheck } from "@/lib/check-key";
import { httpOriginOf } from "@/lib/safe-url";
import { describeError } from "../error-catalog";
import { proxyCommand } from "../proxy-command";
import type { ApiOutcome, ProbeResults } from "./probes";

/** A finding worded here; any other is named by the catalog entry it comes from (`authentication:key_not_found`…). */
export type MultiProbeCause =
  | "all-good"
  | "no-key"
  | "key-refused"
  | "server-down"
  | "offline"
  | "insecure-blocked"
  | "cors"
  | "redirect"
  | "wrong-environment"
  | "open-api";

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
  /** Key entry's checks of the key tested; null without a key. */
  keyCheck: KeyCheck | null;
  /** The pasted text was sent as the whole Authorization value rather than as the key after `Bearer `. */
  asHeader: boolean;
  /** How many other configured environments there are to try the key in. */
  otherEnvironmentCount: number;
  /** Results of trying the key in other environments, after the user asked for it. */
  otherEnvironments: readonly OtherEnvironmentResult[];
}

export interface Finding {
  /** A MultiProbeCause, or the id of the catalog entry the finding comes from. */
  cause: MultiProbeCause | (string & {});
  tone: "ok" | "info" | "warning" | "danger";
  /** The cause, in one sentence. */
  summary: string;
  /** What happened, when the cause needs more than its sentence (the catalog's words). */
  detail: string | null;
  /** What to do about it, in one sentence. */
  fix: string;
  command: { caption: string; text: string } | null;
  /** When the API allows the next request (ms since the epoch), for a countdown. */
  retryAt: number | null;
  /** Offer to try the key in the other environments (an explicit click). */
  offerOtherEnvironments: boolean;
  /** Another environment where the key works, to offer switching to. */
  workingEnvironment: { id: string; name: string; count: number } | null;
}

function finding(
  cause: Finding["cause"],
  tone: Finding["tone"],
  summary: string,
  fix: string,
  extra: Partial<Finding> = {},
): Finding {
  return {
    cause,
    tone,
    summary,
    detail: null,
    fix,
    command: null,
    retryAt: null,
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

function proxyFinding(origin: string, context: DiagnoseContext): Pick<Finding, "command"> {
  const text = proxyCommand(origin, context.pageOrigin);
  return { command: text === null ? null : { caption: "Proxy mode: Keyscope and the API on one origin", text } };
}

/** Why the API called the header malformed, from what key entry's checks saw in the pasted text. */
function malformedWhy(context: DiagnoseContext): string | null {
  const bearerPasted =
    context.keyCheck?.fixes.some((fix) => fix === "removed-bearer-prefix" || fix === "removed-authorization-header") ??
    false;
  if (context.asHeader && !bearerPasted) return "The value sent has no `Bearer ` prefix.";
  if (!context.asHeader && bearerPasted)
    return "The pasted text already starts with “Bearer”, so the header became “Bearer Bearer …”.";
  return null;
}

/** The catalog's heading as the sentence, its first fix step as the fix, what happened as the detail. */
function fromCatalog(error: KeyscopeError, context: DiagnoseContext): Finding {
  const described = describeError(error, { baseUrl: context.baseUrl, pageOrigin: context.pageOrigin });
  const snippet = described.snippets.find(
    (candidate) => candidate.text.includes("\n") || candidate.text.startsWith("npm "),
  );
  const why = described.entryId === "authentication:malformed" ? malformedWhy(context) : null;
  return finding(
    described.entryId,
    described.tone,
    `${described.heading}.`,
    described.fixSteps[0] ?? "See the error's documentation.",
    {
      detail: why === null ? described.whatHappened : `${described.whatHappened} ${why}`,
      command: snippet === undefined ? null : { caption: snippet.caption, text: snippet.text },
      retryAt: error instanceof ApiError ? error.retryAt : null,
      offerOtherEnvironments: described.entryId === "authentication:key_not_found" && context.otherEnvironmentCount > 0,
    },
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
    if (error.missingCredentials && !keySent) {
      return finding(
        "no-key",
        "info",
        `The API at ${origin} answers and asks for a key, as it should.`,
        "Enter a key to test, then run the diagnostics again.",
      );
    }
  }
  return fromCatalog(error, context);
}

export function diagnose(results: ProbeResults, context: DiagnoseContext): Finding {
  const origin = originOf(context.baseUrl, context.pageOrigin);
  const { reach, withoutKey, withKey } = results;
  switch (reach.kind) {
    case "invalid":
      return fromCatalog(reach.error, context);
    case "page-blocked":
      return finding(
        "insecure-blocked",
        "danger",
        `The browser sent nothing to ${origin}: this page may call plain http only on this computer (as 127.0.0.1 or localhost), so a root key never travels unencrypted over the network.`,
        "Use the API's https:// address, or serve Keyscope next to the API with the proxy mode and open that.",
        proxyFinding(origin, context),
      );
    case "unreachable":
      return reach.offline
        ? finding(
            "offline",
            "danger",
            "This browser is offline, so no request can reach the API.",
            "Reconnect to the network, then run the diagnostics again.",
          )
        : finding(
            "server-down",
            "danger",
            `Nothing answers at ${origin}: the server is down, its host name does not resolve, or the base URL points at the wrong host or port.`,
            "Start the API (or check that it runs and accepts connections), then check the base URL's host and port.",
          );
    case "redirected":
      return finding(
        "redirect",
        "danger",
        `The address ${origin} answers, but with a redirect to another address, which this page may not read or follow with the key (the browser hides where it leads).`,
        `See where it leads with \`curl -si -X POST ${origin}/v2/keys.listKeys\`, its \`location\` line; use that address as the base URL if it is the API, or remove the redirect.`,
      );
    case "cors-blocked":
      // This page's own origin answering unreadably is not a missing CORS header: it sent the browser elsewhere.
      return origin === context.pageOrigin
        ? finding(
            "redirect",
            "danger",
            `The address ${origin} answers, but with a redirect to another site (often a sign-in page), which this page may not read.`,
            "Open the base URL in a new tab to see where it leads, then point the proxy's --upstream (or the base URL) at the API itself.",
          )
        : finding(
            "cors",
            "danger",
            `The API at ${origin} answers, but it sends no CORS headers for this page (${context.pageOrigin}), so the browser hides every answer from Keyscope.`,
            "Serve Keyscope on the API's origin through the reference server's proxy mode, and open the address it prints.",
            proxyFinding(origin, context),
          );
    case "readable":
      break;
  }

  if (context.keyCheck !== null && !context.keyCheck.ok) {
    return finding(
      "key-refused",
      "danger",
      `The key was not sent, because key entry's checks refuse it: ${context.keyCheck.reason}`,
      "Copy the key again from where it was created, alone and on one line, then run the diagnostics again.",
    );
  }

  if (withKey !== null) {
    if (withKey.kind === "keys") {
      return finding(
        "all-good",
        "ok",
        `All good: the key works and lists ${keysText(withKey.count, withKey.hasMore)}.`,
        "Nothing to fix.",
      );
    }
    const found = fromError(withKey.error, true, origin, context);
    if (found.cause !== "authentication:key_not_found") return found;
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

  if (withoutKey === null)
    return finding(
      "no-key",
      "info",
      `The API at ${origin} answers.`,
      "Enter a key to test, then run the diagnostics again.",
    );
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
export function outcomeFacts(outcome: ApiOutcome): {
  status: number | null;
  code: string | null;
  requestId: string | null;
} {
  if (outcome.kind === "keys") return { status: 200, code: null, requestId: outcome.requestId };
  const error = outcome.error;
  if (error instanceof ApiError) return { status: error.status, code: error.code, requestId: error.requestId };
  if (error instanceof UnexpectedResponseError) return { status: error.status, code: null, requestId: error.requestId };
  return { status: null, code: null, requestId: null };
}
