/**
 * The probes of a diagnostics run, as plain functions of a base URL and a key: no React here.
 * Each one sends one request and records what came back (or why nothing could be read), and how long it took.
 */
import { listKeys } from "@/lib/api/list-keys";
import { bearer, listKeysPaths } from "@/lib/contract";
import { normalizeBaseUrl } from "@/lib/check-base-url";
import { deadline, defaultFetch, untilAborted } from "@/lib/api/fetch-tools";
import { classifyNetworkFailure } from "@/lib/api/network-failure";
import type { Connection } from "@/lib/api/transport";
import { toKeyscopeError, type KeyscopeError } from "@/lib/api-errors";

export type ReachOutcome =
  | { kind: "readable"; status: number; redirectedTo: string | null; ms: number }
  | { kind: "cors-blocked"; ms: number }
  /** Something answered with a redirect the page may not follow or read (where it leads stays hidden). */
  | { kind: "redirected"; ms: number }
  /** The page itself refused to send it: plain http to another computer, mixed content, `[::1]`. */
  | { kind: "page-blocked"; ms: number }
  | { kind: "unreachable"; offline: boolean; ms: number }
  /** The base URL cannot be used at all, so nothing was sent. */
  | { kind: "invalid"; error: KeyscopeError; ms: number };

export type ApiOutcome =
  | { kind: "keys"; count: number; hasMore: boolean; requestId: string | null; ms: number }
  | { kind: "error"; error: KeyscopeError; ms: number };

export interface ProbeResults {
  reach: ReachOutcome;
  /** null: skipped, because nothing readable answered. */
  withoutKey: ApiOutcome | null;
  /** null: skipped (no key to test, or nothing readable answered). */
  withKey: ApiOutcome | null;
}

export interface ProbeTarget {
  baseUrl: string;
  apiId?: string | undefined;
}

export interface KeyToTest {
  /** The key (or, with `asHeader`, the whole Authorization value) exactly as given: never trimmed or fixed. */
  value: string;
  asHeader: boolean;
}

export interface ProbeOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Per request; a diagnosis should take seconds, not the client's usual 15. */
  timeoutMs?: number;
  /** This page's origin, for the classification of a failure; the browser's own by default. */
  pageOrigin?: string;
  now?: () => number;
}

export type ProbeId = "reach" | "without-key" | "with-key";

const DEFAULT_TIMEOUT_MS = 8000;

function clock(options: ProbeOptions): () => number {
  return options.now ?? (() => performance.now());
}

/** The operation a probe calls: the list operation the dashboard would call first. */
export function probeUrl(target: ProbeTarget): string {
  const base = normalizeBaseUrl(target.baseUrl);
  return `${base}${listKeysPaths(target.apiId?.trim() || undefined)[0] ?? ""}`;
}

/**
 * (1) Does anything answer, and may this page read it? A normal request answers both; when it fails, a
 * `no-cors` request resolves (with an opaque answer) if the server answered and only CORS hid it.
 */
export async function probeReach(target: ProbeTarget, options: ProbeOptions = {}): Promise<ReachOutcome> {
  const fetchImpl = options.fetch ?? defaultFetch;
  const now = clock(options);
  const started = now();
  const elapsed = () => Math.round(now() - started);
  let url: string;
  try {
    url = probeUrl(target);
  } catch (error) {
    return { kind: "invalid", error: toKeyscopeError(error), ms: elapsed() };
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    const response = await withTimeout(timeoutMs, options.signal, (signal) =>
      fetchImpl(url, {
        method: "POST",
        body: "{}",
        credentials: "omit",
        cache: "no-store",
        referrerPolicy: "no-referrer",
        headers: { "Content-Type": "application/json" },
        signal,
      }),
    );
    await response.body?.cancel().catch(() => undefined);
    const redirectedTo = response.redirected && response.url !== "" ? response.url : null;
    return { kind: "readable", status: response.status, redirectedTo, ms: elapsed() };
  } catch {
    options.signal?.throwIfAborted();
  }
  // The client's own classification, so that the Keys page and this page name a failure the same way.
  const { signal } = deadline(timeoutMs, options.signal);
  const failure = await classifyNetworkFailure(url, target.baseUrl, {
    fetch: options.fetch,
    signal,
    pageOrigin: options.pageOrigin,
  });
  options.signal?.throwIfAborted();
  if (failure === "cors") return { kind: "cors-blocked", ms: elapsed() };
  if (failure === "redirect") return { kind: "redirected", ms: elapsed() };
  if (failure === "blocked-by-page") return { kind: "page-blocked", ms: elapsed() };
  return { kind: "unreachable", offline: failure === "offline", ms: elapsed() };
}

/** Runs `request` with the client's deadline: it gives up after `ms` or with the caller's signal. */
function withTimeout<T>(
  ms: number,
  caller: AbortSignal | undefined,
  request: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { signal } = deadline(ms, caller);
  return untilAborted(request(signal), signal);
}

/** (2) and (3): the list operation without a key, or with the key to test, through the one API client. */
export async function probeList(
  target: ProbeTarget,
  key: KeyToTest | null,
  options: ProbeOptions = {},
): Promise<ApiOutcome> {
  const now = clock(options);
  const started = now();
  const connection: Connection = { baseUrl: target.baseUrl, apiKey: key?.value ?? "", apiId: target.apiId };
  try {
    const page = await listKeys(
      connection,
      {},
      {
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(key ? { authorization: key.asHeader ? key.value : bearer(key.value) } : {}),
      },
    );
    return {
      kind: "keys",
      count: page.keys.length,
      hasMore: page.hasMore,
      requestId: page.requestId,
      ms: Math.round(now() - started),
    };
  } catch (error) {
    options.signal?.throwIfAborted();
    return { kind: "error", error: toKeyscopeError(error, key ? [key.value] : []), ms: Math.round(now() - started) };
  }
}

/**
 * The probes in order, each reported as it starts and ends. Later ones are skipped when nothing readable
 * answered, since they could only fail the same way.
 */
export async function runProbes(
  target: ProbeTarget,
  key: KeyToTest | null,
  onProgress: (id: ProbeId, state: "running" | "done", partial: Partial<ProbeResults>) => void,
  options: ProbeOptions = {},
): Promise<ProbeResults> {
  onProgress("reach", "running", {});
  const reach = await probeReach(target, options);
  onProgress("reach", "done", { reach });
  if (reach.kind !== "readable") return { reach, withoutKey: null, withKey: null };

  onProgress("without-key", "running", { reach });
  const withoutKey = await probeList(target, null, options);
  onProgress("without-key", "done", { reach, withoutKey });
  if (key === null) return { reach, withoutKey, withKey: null };

  onProgress("with-key", "running", { reach, withoutKey });
  const withKey = await probeList(target, key, options);
  onProgress("with-key", "done", { reach, withoutKey, withKey });
  return { reach, withoutKey, withKey };
}
