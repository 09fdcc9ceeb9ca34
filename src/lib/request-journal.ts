/**
 * The journal of this tab's API calls: the last 50, kept in memory only (gone with the tab, never stored),
 * so a request id the dashboard got back can be looked up with what was sent and what came back.
 * The transport records every call; nothing here ever holds a key: the Authorization header is not
 * recorded, a body's `key` field is replaced, and every text is scrubbed of the secrets the transport knows.
 */
import { REDACTED } from "./api-errors";
import { formatCount } from "./format-number";

export const JOURNAL_SIZE = 50;
/** Enough of an answer to read what it said; a page of keys is cut. */
export const JOURNAL_BODY_MAX = 4000;

export interface JournalEntry {
  /** Increases with every call of this tab. */
  seq: number;
  /** When the request was sent (ms since the epoch). */
  at: number;
  method: string;
  url: string;
  /** The request body with any secret replaced. */
  requestBody: string;
  /** Whether an Authorization header went out (its value is never recorded). */
  keySent: boolean;
  status: number | null;
  requestId: string | null;
  /** The start of the answer, scrubbed; or what went wrong when there was none. */
  responseBody: string;
  durationMs: number | null;
}

let entries: JournalEntry[] = [];
let nextSeq = 1;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Replaces the secret fields of a JSON request body (`key`: a key being verified) and scrubs the rest. */
export function redactRequestBody(body: string, scrub: (text: string) => string): string {
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && "key" in parsed) {
      text = JSON.stringify({ ...parsed, key: REDACTED });
    }
  } catch {
    // Not JSON: only scrubbed.
  }
  return cut(scrub(text));
}

/**
 * Replaces the secrets an answer can carry: `data.key`, the new key's secret that keys.createKey and keys.rerollKey
 * answer once, and `data.plaintext` (keys.getKey with decrypt). An answer that is not JSON is kept as it is.
 */
export function redactResponseBody(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof parsed !== "object" || parsed === null || !("data" in parsed)) return body;
  const { data } = parsed;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return body;
  if (!("key" in data) && !("plaintext" in data)) return body;
  const redacted = {
    ...data,
    ...("key" in data && { key: REDACTED }),
    ...("plaintext" in data && { plaintext: REDACTED }),
  };
  return JSON.stringify({ ...parsed, data: redacted });
}

function cut(text: string): string {
  return text.length > JOURNAL_BODY_MAX
    ? `${text.slice(0, JOURNAL_BODY_MAX)}… (${formatCount(text.length)} characters in all)`
    : text;
}

export interface JournalStart {
  method: string;
  url: string;
  requestBody: string;
  keySent: boolean;
}

/** Records a call as it starts; returns how to record its end. The caller passes texts already scrubbed. */
export function recordRequest(
  start: JournalStart,
): (end: { status: number | null; requestId: string | null; responseBody: string }) => void {
  const entry: JournalEntry = {
    ...start,
    requestBody: cut(start.requestBody),
    seq: nextSeq++,
    at: Date.now(),
    status: null,
    requestId: null,
    responseBody: "",
    durationMs: null,
  };
  entries = [...entries, entry].slice(-JOURNAL_SIZE);
  notify();
  return (end) => {
    const finished: JournalEntry = {
      ...entry,
      ...end,
      responseBody: cut(end.responseBody),
      durationMs: Date.now() - entry.at,
    };
    // It may have left the ring already: then there is nothing to update.
    if (!entries.some((item) => item.seq === entry.seq)) return;
    entries = entries.map((item) => (item.seq === entry.seq ? finished : item));
    notify();
  };
}

/** Newest last; a new array whenever anything changed (for useSyncExternalStore). */
export function journalEntries(): readonly JournalEntry[] {
  return entries;
}

export function findInJournal(requestId: string): JournalEntry | null {
  return entries.findLast((entry) => entry.requestId === requestId) ?? null;
}

export function subscribeToJournal(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** For tests: an empty journal. */
export function clearJournal(): void {
  entries = [];
  notify();
}
