import { isIP } from "node:net";
import { isPermissionName } from "../keys/permission-query";
import { isPermission, parseResourcePermission } from "../auth/permissions";
import type { RateLimit } from "../auth/rate-limit";

/** Parsers for the admin CLI's option values; each throws a UsageError naming the flag. */

export class UsageError extends Error {}

const WINDOW_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const RATELIMIT = /^(\d+)\/(\d+)(ms|s|m|h)$/;

function isWindowUnit(unit: string): unit is keyof typeof WINDOW_UNITS_MS {
  return Object.hasOwn(WINDOW_UNITS_MS, unit);
}

/** `N/WINDOW`, e.g. `300/60s`, `1000/1m`, `50000/1h`. */
export function parseRateLimit(value: string): RateLimit {
  const match = RATELIMIT.exec(value);
  const [, limitText = "", amountText = "", unit = ""] = match ?? [];
  const limit = Number(limitText);
  const windowMs = Number(amountText) * (isWindowUnit(unit) ? WINDOW_UNITS_MS[unit] : Number.NaN);
  if (match === null || !(limit >= 1) || !(windowMs >= 1) || !Number.isSafeInteger(windowMs)) {
    throw new UsageError(`--ratelimit must be N/WINDOW like 300/60s, 1000/1m or 50000/1h, got "${value}"`);
  }
  return { limit, windowMs };
}

export function formatRateLimit({ limit, windowMs }: RateLimit): string {
  for (const [unit, size] of [
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const) {
    if (windowMs % size === 0) return `${limit}/${windowMs / size}${unit}`;
  }
  return `${limit}/${windowMs}ms`;
}

/**
 * A comma-separated list like `api.*.read_key,api.api_123.read_key` (or URN-form permissions, which must name the
 * root key's workspace `workspaceId`: another's would allow nothing), of at least one.
 */
export function parsePermissions(value: string, workspaceId: string): string[] {
  const permissions = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  if (permissions.length === 0) {
    throw new UsageError(
      `--permissions must name at least one, like api.*.read_key: a root key without any may do nothing (leave the option out for the default)`,
    );
  }
  const invalid = permissions.find((permission) => !isPermission(permission));
  if (invalid !== undefined) {
    throw new UsageError(
      `--permissions takes entries like api.*.read_key, api.<apiId>.read_key or unkey:v1:<workspaceId>:keyspaces/<apiId>/keys/*#read_key, got "${invalid}"`,
    );
  }
  const foreign = permissions.find((permission) => {
    const resource = parseResourcePermission(permission);
    return resource !== undefined && resource.workspaceId !== workspaceId;
  });
  if (foreign !== undefined) {
    throw new UsageError(
      `--permissions: "${foreign}" names another workspace than this root key's ${workspaceId}, so it would allow nothing`,
    );
  }
  return permissions;
}

/** An ISO 8601 date or date-time, as Unix milliseconds. */
export function parseIsoDate(flag: string, value: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw new UsageError(`${flag} must be an ISO date like 2030-01-31 or 2030-01-31T12:00:00Z, got "${value}"`);
  return ms;
}

export function parseCount(value: string, max: number): number {
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(count >= 1 && count <= max))
    throw new UsageError(`--count must be a whole number from 1 to ${max}, got "${value}"`);
  return count;
}

export function requireText(flag: string, value: string | undefined): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`${flag} is required and must not be empty`);
  return value.trim();
}

/** A comma-separated list of a key's own permissions or roles, like `documents.read,users.view`. */
export function parseNameList(flag: string, value: string): string[] {
  const names = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  const invalid = names.find((name) => !isPermissionName(name));
  if (invalid !== undefined) {
    throw new UsageError(`${flag} takes names of letters, digits and _ . : * - separated by commas, got "${invalid}"`);
  }
  return names;
}

const RELATIVE_TIME = /^([+-])(\d+)([mhd])$/;
const RELATIVE_UNITS_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--expires`: an ISO date, or a time relative to `now` like `+30d`, `-3d`, `+2h` (the past makes an expired key). */
export function parseExpiry(value: string, now: number): number {
  const match = RELATIVE_TIME.exec(value);
  if (match === null) return parseIsoDate("--expires", value);
  const [, sign = "+", amount = "0", unit = "d"] = match;
  const size = unit === "m" || unit === "h" || unit === "d" ? RELATIVE_UNITS_MS[unit] : 0;
  return now + (sign === "-" ? -1 : 1) * Number(amount) * size;
}

export interface Refill {
  interval: "daily" | "monthly";
  amount: number;
}

/** `daily:AMOUNT` or `monthly:AMOUNT` (monthly refills on the 1st). */
export function parseRefill(value: string): Refill {
  const match = /^(daily|monthly):(\d+)$/.exec(value);
  const amount = Number(match?.[2]);
  if (match === null || !(amount >= 1) || !Number.isSafeInteger(amount)) {
    throw new UsageError(`--refill must be daily:AMOUNT or monthly:AMOUNT with a whole AMOUNT ≥ 1, got "${value}"`);
  }
  return { interval: match[1] === "daily" ? "daily" : "monthly", amount };
}

/** A whole number ≥ 0 for `flag`. */
export function parseWhole(flag: string, value: string): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) throw new UsageError(`${flag} must be a whole number ≥ 0, got "${value}"`);
  return number;
}

/** `--meta`: a JSON object. */
export function parseMeta(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(`--meta must be a JSON object like '{"team":"billing"}', got "${value}"`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--meta must be a JSON object like '{"team":"billing"}', got "${value}"`);
  }
  return Object.fromEntries(Object.entries(parsed));
}

export interface NamedRateLimit {
  name: string;
  limit: number;
  durationMs: number;
  autoApply: boolean;
}

const RATE_LIMIT_NAME = /^[\w.:-]{1,128}$/;
const AUTO_APPLY_SUFFIX = ":auto";
/** The name of the rate limit `--ratelimit N/WINDOW` makes, checked on every verification. */
export const DEFAULT_RATE_LIMIT_NAME = "requests";

/**
 * `--ratelimit` of a key or an identity, repeatable: `N/WINDOW` is the limit named "requests", applied to every
 * verification; `NAME=N/WINDOW` a named one, applied only when a verification names it in its `ratelimits`, or to
 * every verification with `:auto` after it (`tokens=100/1m:auto`).
 */
export function parseRateLimits(values: readonly string[]): NamedRateLimit[] {
  const limits = values.map((value): NamedRateLimit => {
    const equals = value.indexOf("=");
    const name = equals === -1 ? DEFAULT_RATE_LIMIT_NAME : value.slice(0, equals);
    if (!RATE_LIMIT_NAME.test(name)) {
      throw new UsageError(
        `--ratelimit NAME=N/WINDOW takes a name of 1 to 128 letters, digits and _ . : -, got "${name}"`,
      );
    }
    const rest = value.slice(equals + 1);
    const auto = equals !== -1 && rest.endsWith(AUTO_APPLY_SUFFIX);
    const { limit, windowMs } = parseRateLimit(auto ? rest.slice(0, -AUTO_APPLY_SUFFIX.length) : rest);
    return { name, limit, durationMs: windowMs, autoApply: equals === -1 || auto };
  });
  const names = limits.map((limit) => limit.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined)
    throw new UsageError(`--ratelimit names "${repeated}" twice: give each limit its own name`);
  return limits;
}

/** A key's or identity's rate limit as `--ratelimit` takes it back. */
export function formatNamedRateLimit(limit: NamedRateLimit): string {
  const window = formatRateLimit({ limit: limit.limit, windowMs: limit.durationMs });
  if (limit.name === DEFAULT_RATE_LIMIT_NAME && limit.autoApply) return window;
  return `${limit.name}=${window}${limit.autoApply ? AUTO_APPLY_SUFFIX : ""}`;
}

/** A whole number from `min` to `max`, e.g. `--default-bytes 32` or `--retention-days 365`. */
export function parseWholeIn(flag: string, value: string, min: number, max: number): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max))
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  return number;
}

/** `--default-prefix`: what keys.createKey puts before `_` when a request gives no prefix (the real service keeps 8 characters). */
export function parseDefaultPrefix(value: string): string {
  if (!/^[A-Za-z0-9_]{1,8}$/.test(value))
    throw new UsageError(`--default-prefix must be 1 to 8 letters, digits or _, got "${value}"`);
  return value;
}

/** `on` or `off`, e.g. `--delete-protection on`. */
export function parseSwitch(flag: string, value: string): boolean {
  if (value !== "on" && value !== "off") throw new UsageError(`${flag} must be on or off, got "${value}"`);
  return value === "on";
}

/** `--ip-whitelist`: comma-separated IPv4 or IPv6 addresses, at most 512 characters as the real service stores them. */
export function parseIpWhitelist(value: string): string[] {
  const addresses = value.split(",").map((item) => item.trim());
  const wrong = addresses.find((address) => isIP(address) === 0);
  if (wrong !== undefined)
    throw new UsageError(`--ip-whitelist takes addresses like 203.0.113.7,2001:db8::1; "${wrong}" is not one`);
  if (addresses.join(",").length > 512) throw new UsageError("--ip-whitelist must be at most 512 characters");
  return addresses;
}

/** An override's `--ratelimit N/WINDOW`: as a key's, but N may be 0 (which blocks) and the window is at least 1s. */
export function parseOverrideRateLimit(value: string): RateLimit {
  const blocks = /^0\//.test(value);
  const { limit, windowMs } = parseRateLimit(blocks ? value.replace(/^0/, "1") : value);
  if (windowMs < 1000) throw new UsageError(`--ratelimit's window must be at least 1s for an override, got "${value}"`);
  return { limit: blocks ? 0 : limit, windowMs };
}
