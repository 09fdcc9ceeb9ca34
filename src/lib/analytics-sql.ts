/**
 * The analytics queries Keyscope sends to `analytics.getVerifications` (docs/api.md#analytics), as ClickHouse SQL
 * that the reference server runs unchanged. Every value put into the text is either validated against an
 * id's shape first or quoted by `sqlString`, never interpolated raw.
 */

const BASE58 = "[1-9A-HJ-NP-Za-km-z]";
const KEY_ID = new RegExp(`^key_${BASE58}+$`);
const REQUEST_ID = new RegExp(`^req_${BASE58}+$`);

/** A key id as the service makes them (`key_` + base58): safe to put between quotes in SQL as it is. */
export function isKeyId(value: string): boolean {
  return value.length <= 64 && KEY_ID.test(value);
}

/** A request id as the service makes them (`req_` + base58). */
export function isRequestId(value: string): boolean {
  return value.length <= 64 && REQUEST_ID.test(value);
}

/** The longest text a filter puts into a query (a tag, an external id, a region). */
export const MAX_TEXT_LENGTH = 500;

export type SqlStringCheck = { ok: true; literal: string } | { ok: false; reason: string };

/**
 * A text value as a string literal both ClickHouse and the reference engine read the same way: quotes doubled.
 * Backslashes escape in ClickHouse but not in standard SQL, and control characters are never in a tag, so
 * both are refused rather than guessed at. `what` names the value in the reason ("A tag", "An external id").
 */
export function sqlString(value: string, what = "A tag"): SqlStringCheck {
  if (value.includes("\\")) return { ok: false, reason: `${what} with a backslash cannot be searched for.` };
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(value))
    return { ok: false, reason: `${what} with a line break or control character cannot be searched for.` };
  if (value.length > MAX_TEXT_LENGTH)
    return { ok: false, reason: `${what} is at most ${MAX_TEXT_LENGTH} characters long.` };
  return { ok: true, literal: `'${value.replaceAll("'", "''")}'` };
}

export type UsageWindow = "24h" | "7d" | "30d";

export const USAGE_WINDOWS: Record<
  UsageWindow,
  { label: string; table: string; interval: string; bucketMs: number; buckets: number }
> = {
  "24h": {
    label: "24 hours",
    table: "key_verifications_per_hour_v1",
    interval: "INTERVAL 24 HOUR",
    bucketMs: 3_600_000,
    buckets: 24,
  },
  "7d": {
    label: "7 days",
    table: "key_verifications_per_hour_v1",
    interval: "INTERVAL 7 DAY",
    bucketMs: 3_600_000,
    buckets: 168,
  },
  "30d": {
    label: "30 days",
    table: "key_verifications_per_day_v1",
    interval: "INTERVAL 30 DAY",
    bucketMs: 86_400_000,
    buckets: 30,
  },
};

function assertKeyId(keyId: string): void {
  if (!isKeyId(keyId)) throw new Error(`not a key id: ${JSON.stringify(keyId.slice(0, 80))}`);
}

/** Verifications of one key per hour (24 h, 7 days) or per day (30 days), by outcome: rows `{time, outcome, total}`. */
export function usageQuery(keyId: string, window: UsageWindow): string {
  assertKeyId(keyId);
  const { table, interval } = USAGE_WINDOWS[window];
  return (
    `SELECT time, outcome, sum(count) AS total FROM ${table} ` +
    `WHERE key_id = '${keyId}' AND time >= now() - ${interval} ` +
    "GROUP BY time, outcome ORDER BY time"
  );
}

export const REFUSALS_PAGE_SIZE = 50;

/**
 * A verification's place in the order every list of verifications reads them, newest first: by time, then by request
 * id (a burst shares one millisecond). The last row a page showed is where the next page starts.
 */
export interface VerificationCursor {
  time: number;
  requestId: string;
}

/** One page of verifications read newest first, and where the next one starts (none after the last). */
export interface CursorPage<T> {
  items: T[];
  next: VerificationCursor | undefined;
}

/**
 * A page of `size` rows from a query that asked for one more (`LIMIT size + 1`): the extra row only says that another
 * page exists, which starts after the page's last row.
 */
export function cursorPage<T extends VerificationCursor>(rows: readonly T[], size: number): CursorPage<T> {
  const items = rows.slice(0, size);
  const last = items.at(-1);
  return {
    items,
    next: rows.length > size && last !== undefined ? { time: last.time, requestId: last.requestId } : undefined,
  };
}

/** The last refusal a page showed: the next page starts after it, in the order `refusalsQuery` reads them. */
export type RefusalsCursor = VerificationCursor;

/**
 * One page of a key's refused verifications, newest first: rows `{request_id, time, outcome, region, tags}`.
 * Asks for one row more than a page, to know whether another page exists. `tag` must be a `sqlString` literal.
 * Ordered by time and then request id, and paged from the last row shown rather than by an offset: a burst of
 * refusals shares one millisecond, and an order with ties (or refusals recorded since) would move rows across a page's
 * edge, shown twice or skipped.
 */
export function refusalsQuery(
  keyId: string,
  page: { after?: RefusalsCursor | undefined; tagLiteral?: string | undefined },
): string {
  assertKeyId(keyId);
  const tag = page.tagLiteral === undefined ? "" : ` AND has(tags, ${page.tagLiteral})`;
  const after = page.after === undefined ? "" : ` AND ${olderThan(page.after)}`;
  return (
    "SELECT request_id, time, outcome, region, tags FROM key_verifications_v1 " +
    `WHERE key_id = '${keyId}' AND outcome != 'VALID'${tag}${after} ` +
    `ORDER BY time DESC, request_id DESC LIMIT ${REFUSALS_PAGE_SIZE + 1}`
  );
}

function cursorLiteral({ time, requestId }: VerificationCursor): string {
  if (!Number.isSafeInteger(time)) throw new Error(`not a time in ms: ${time}`);
  const id = sqlString(requestId);
  if (!id.ok) throw new Error(`not a request id to page from: ${JSON.stringify(requestId.slice(0, 80))}`);
  return id.literal;
}

/**
 * The rows after `cursor` in the order time DESC, request_id DESC (older ones). Without `time = …`: an equality is a
 * lower time bound, which the query layer refuses when it is further back than the retention (a row older than it,
 * shown by a server that does not filter those out, would end the paging with an error).
 */
export function olderThan(cursor: VerificationCursor): string {
  const id = cursorLiteral(cursor);
  return `time <= ${cursor.time} AND (time < ${cursor.time} OR request_id < ${id})`;
}

/** The rows before `cursor` in that order: the newer ones (a lower bound of `time`, recent, so inside the retention). */
export function newerThan(cursor: VerificationCursor): string {
  const id = cursorLiteral(cursor);
  return `time >= ${cursor.time} AND (time > ${cursor.time} OR request_id > ${id})`;
}

/** The verification recorded under one request id: rows `{request_id, time, key_id, outcome, region, tags}`. */
export function verificationByRequestIdQuery(requestId: string): string {
  if (!isRequestId(requestId)) throw new Error(`not a request id: ${JSON.stringify(requestId.slice(0, 80))}`);
  return (
    "SELECT request_id, time, key_id, outcome, region, tags FROM key_verifications_v1 " +
    `WHERE request_id = '${requestId}' LIMIT 1`
  );
}

/**
 * How far inside a window a query over single verifications starts: the server's clock may run behind the browser's,
 * and a range that starts a moment before the retention (30 days by default) is refused.
 */
const CLOCK_MARGIN_MS = 5 * 60_000;

/** The start (ms) of a window ending `now`, a few minutes inside it. */
export function windowStart(window: UsageWindow, now: number): number {
  const { bucketMs, buckets } = USAGE_WINDOWS[window];
  return now - bucketMs * buckets + CLOCK_MARGIN_MS;
}

function externalIdLiteral(externalId: string): string {
  const checked = sqlString(externalId, "An external id");
  if (!checked.ok) throw new Error(checked.reason);
  return checked.literal;
}

/**
 * Verifications of one identity per hour (24 h, 7 days) or per day (30 days), by outcome: rows `{time, outcome,
 * total}`. By `external_id`, the column the public tables carry for a key's identity (they have no identity id); an
 * identity deleted and made again with the same external id shares its history.
 */
export function identityUsageQuery(externalId: string, window: UsageWindow): string {
  const { table, interval } = USAGE_WINDOWS[window];
  return (
    `SELECT time, outcome, sum(count) AS total FROM ${table} ` +
    `WHERE external_id = ${externalIdLiteral(externalId)} AND time >= now() - ${interval} ` +
    "GROUP BY time, outcome ORDER BY time"
  );
}

/** How many (key, outcome) pairs an identity's refusals are told by. */
export const IDENTITY_REFUSALS_LIMIT = 50;

/**
 * An identity's refused verifications since `since` (ms), by key and outcome, most first: rows `{key_id, outcome,
 * total, latest}`, `latest` the newest one's time (ms), read from single verifications so that a rate limit's window
 * can be placed.
 */
export function identityRefusalsQuery(externalId: string, since: number): string {
  if (!Number.isSafeInteger(since)) throw new Error(`not a time in ms: ${since}`);
  return (
    "SELECT key_id, outcome, count(*) AS total, max(time) AS latest FROM key_verifications_v1 " +
    `WHERE external_id = ${externalIdLiteral(externalId)} AND outcome != 'VALID' AND time >= ${since} ` +
    `GROUP BY key_id, outcome ORDER BY total DESC, key_id, outcome LIMIT ${IDENTITY_REFUSALS_LIMIT}`
  );
}
