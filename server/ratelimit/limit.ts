import type { Database } from "better-sqlite3";
import { ratelimitRule, requirePermission } from "../auth/permissions";
import {
  createNamespace,
  deleteExpiredCounters,
  findNamespace,
  recordDecision,
  spendCounter,
  spentTokens,
  type CounterId,
  type NamespaceRow,
} from "../db/ratelimits";
import { ApiRefusal } from "../http/api-refusal";
import { createKeyRateLimiter, windowOf, type KeyRateLimiter, type RateLimitCheck } from "../keys/key-rate-limiter";
import { matchOverride } from "./overrides";

/**
 * `ratelimit.limit`'s and `ratelimit.multiLimit`'s semantics, in the work of one transaction (the group commit's, or
 * traffic's batch): find the namespaces (creating the missing ones for a root key that may), apply each identifier's
 * override, decide with the keys' limiter (the real service's sliding window), record every decision and charge the
 * counters on disk.
 */

/** One limit asked for: an identifier in a namespace (its name or id), with the request's limit and window. */
export interface LimitAsk {
  namespace: string;
  identifier: string;
  limit: number;
  /** Milliseconds. */
  duration: number;
  cost?: number;
}

export interface LimitDecision {
  namespace: NamespaceRow;
  identifier: string;
  passed: boolean;
  /** The override's limit when one applied, else the request's. */
  limit: number;
  remaining: number;
  reset: number;
  /** The override that applied; empty when none. */
  overrideId: string;
}

export interface LimitContext {
  db: Database;
  limiter: KeyRateLimiter;
  /** The root key asking. */
  caller: { workspaceId: string; permissions: string };
  /** Recorded as each decision's `request_id`: the call's `meta.requestId`. */
  requestId: string;
  now: number;
}

const DEFAULT_COST = 1;
/** Dead counters are deleted at most this often, at most this many at a time: a limit never waits long for it. */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_AT_MOST = 1_000;

/** A counter is an identifier in a namespace: the namespace id (which has no space) first. */
function counterId(namespaceId: string, identifier: string): string {
  return `${namespaceId} ${identifier}`;
}

/**
 * The limiter of ratelimit.limit and multiLimit: the keys' one, whose counters, when this process has not seen them
 * (after a restart, or once dropped), begin from what the counters on disk say was spent.
 */
export function createNamespaceLimiter(read: <T>(work: (db: Database) => T) => T): KeyRateLimiter {
  return createKeyRateLimiter({
    spentBefore(check: RateLimitCheck, windowStart: number) {
      const space = check.id.indexOf(" ");
      const counter: CounterId = {
        namespaceId: check.id.slice(0, space),
        identifier: check.id.slice(space + 1),
        durationMs: check.durationMs,
      };
      return read((db) => spentTokens(db, counter, windowOf(windowStart, check.durationMs)));
    },
  });
}

/** When each database's dead counters were last deleted. */
const lastPruned = new WeakMap<Database, number>();

function pruneCounters(db: Database, now: number): void {
  const last = lastPruned.get(db);
  // A clock that went back (traffic replaying the past) starts over.
  if (last !== undefined && now >= last && now - last < PRUNE_EVERY_MS) return;
  lastPruned.set(db, now);
  deleteExpiredCounters(db, now, PRUNE_AT_MOST);
}

/**
 * The workspace's namespaces by each name or id asked for. Missing ones are created, in the order asked, when the
 * root key holds `ratelimit.*.create_namespace` (else the real service's 403 naming it, and nothing is created).
 */
export function namespacesFor(names: readonly string[], context: LimitContext): Map<string, NamespaceRow> {
  const { db, caller, now } = context;
  const found = new Map<string, NamespaceRow>();
  const missing: string[] = [];
  for (const name of names) {
    if (found.has(name) || missing.includes(name)) continue;
    const namespace = findNamespace(db, caller.workspaceId, name);
    if (namespace === undefined) missing.push(name);
    else found.set(name, namespace);
  }
  if (missing.length > 0) {
    requirePermission(caller.permissions, ratelimitRule("create_namespace"));
    for (const name of missing) found.set(name, createNamespace(db, caller.workspaceId, name, now));
  }
  return found;
}

/** A deleted namespace is the real service's 410. */
export function requireLive(namespace: NamespaceRow): void {
  if (namespace.deletedAt !== null) throw new ApiRefusal("err:svc:data:ratelimit_namespace_gone");
}

/**
 * Decides every ask at once, all or nothing as the real service's RatelimitMany (a refused batch spends nothing), and
 * records each decision. The namespaces are found, live and permitted.
 */
export function decide(
  asks: readonly { namespace: NamespaceRow; ask: LimitAsk }[],
  context: LimitContext,
): LimitDecision[] {
  const { db, limiter, now } = context;
  const started = performance.now();
  const plans = asks.map(({ namespace, ask }) => {
    const override = matchOverride(db, namespace.id, ask.identifier);
    return {
      namespace,
      identifier: ask.identifier,
      check: {
        id: counterId(namespace.id, ask.identifier),
        limit: override?.limit ?? ask.limit,
        durationMs: override?.durationMs ?? ask.duration,
        cost: ask.cost ?? DEFAULT_COST,
      },
      overrideId: override?.id ?? "",
    };
  });
  const outcomes = limiter.take(
    plans.map((plan) => plan.check),
    now,
  );
  const spent = outcomes.every((outcome) => !outcome.exceeded);
  if (spent) {
    for (const plan of plans) {
      const { check } = plan;
      if (check.cost === 0) continue;
      const counter = { namespaceId: plan.namespace.id, identifier: plan.identifier, durationMs: check.durationMs };
      spendCounter(db, counter, windowOf(now, check.durationMs), check.cost);
    }
  }
  pruneCounters(db, now);
  // Each decision's share of the time it took, as the real service records a batch's.
  const latency = (performance.now() - started) / Math.max(1, plans.length);
  return plans.map((plan, index) => {
    const outcome = outcomes[index] ?? { exceeded: true, remaining: 0, reset: now };
    const decision: LimitDecision = {
      namespace: plan.namespace,
      identifier: plan.identifier,
      passed: !outcome.exceeded,
      limit: plan.check.limit,
      remaining: outcome.remaining,
      reset: outcome.reset,
      overrideId: plan.overrideId,
    };
    recordDecision(db, {
      requestId: context.requestId,
      time: now,
      workspaceId: plan.namespace.workspaceId,
      namespaceId: plan.namespace.id,
      identifier: plan.identifier,
      passed: decision.passed,
      latency,
      overrideId: plan.overrideId,
      limit: decision.limit,
      remaining: decision.remaining,
      resetAt: decision.reset,
      tokens: plan.check.cost,
    });
    return decision;
  });
}
