import type { Database } from "better-sqlite3";
import { createKeyStore } from "./key-store";
import { createApi } from "./apis";
import { createIdentity, type NewIdentity } from "./identities";
import { createPermission, createRole } from "./rbac";
import { createRootKey } from "./root-keys";
import { createWorkspace } from "./workspaces";
import { keyInserter, type NewKey } from "./keys";
import { recordTraffic, trafficReplayer, TRAFFIC_TAGS } from "../keys/traffic";
import {
  apiPermission,
  DELETE_KEY_PERMISSION,
  identityPermission,
  rbacPermission,
  ratelimitPermission,
  READ_ANALYTICS_PERMISSION,
  READ_APIS_PERMISSION,
  READ_KEYS_PERMISSION,
  UPDATE_KEY_PERMISSION,
} from "../../src/lib/contract";
import { VERIFY_ANY_API_KEYS } from "../auth/permissions";
import { hashSecret, newApiKeySecret } from "../keys/secrets";
import { createNamespace, setOverride } from "./ratelimits";
import { recordRatelimitTraffic } from "../ratelimit/traffic";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a root key may do unless told otherwise: read every API and its keys (the real service's apis.listKeys asks both). */
export const DEFAULT_ROOT_KEY_PERMISSIONS = [READ_KEYS_PERMISSION, READ_APIS_PERMISSION] as const;
/**
 * The demo root key may do what the dashboard does: read keys and their analytics, verify keys, and create, change
 * and delete keys with their permissions and roles, and the workspace's identities, roles and permissions (a demo
 * whose actions were all refused would show nothing).
 */
export const DEMO_ROOT_KEY_PERMISSIONS = [
  READ_KEYS_PERMISSION,
  READ_APIS_PERMISSION,
  READ_ANALYTICS_PERMISSION,
  VERIFY_ANY_API_KEYS,
  apiPermission("create_key"),
  UPDATE_KEY_PERMISSION,
  DELETE_KEY_PERMISSION,
  ...(
    [
      "read_permission",
      "read_role",
      "create_permission",
      "add_permission_to_key",
      "remove_permission_from_key",
      "add_role_to_key",
      "remove_role_from_key",
      "delete_permission",
      "create_role",
      "delete_role",
      "add_permission_to_role",
      "remove_permission_from_role",
    ] as const
  ).map(rbacPermission),
  ...(["read_identity", "create_identity", "update_identity", "delete_identity"] as const).map((action) =>
    identityPermission(action),
  ),
  // Rate limiting: limit in (and create) namespaces, manage their overrides, read their analytics.
  ...(["limit", "create_namespace", "set_override", "read_override", "delete_override", "read_analytics"] as const).map(
    (action) => ratelimitPermission(action),
  ),
];
export const DEMO_ROOT_KEY_RATELIMIT = { limit: 300, windowMs: 60_000 } as const;
/** Verifications of the demo keys over the last 30 days: enough for every chart, small enough for a fast first start. */
export const DEMO_VERIFICATIONS = 8_000;
export const DEMO_TRAFFIC_DAYS = 30;

type DemoKey = Pick<
  NewKey,
  "name" | "meta" | "externalId" | "credits" | "refill" | "permissions" | "roles" | "ratelimits"
> & {
  environment: "live" | "test";
  /** How long ago the key was created. */
  ageDays: number;
  enabled?: boolean;
  /** Days from now until it expires; negative when it already has. */
  expiresInDays?: number;
};

const PER_SECOND = (limit: number) => [{ name: "requests", limit, durationMs: 1000, autoApply: true }];

/** The workspace's catalogue of permissions, each with its name and what it allows (a key's own are made with it). */
const DEMO_PERMISSIONS: readonly { slug: string; name: string; description: string }[] = [
  { slug: "documents.read", name: "Read documents", description: "Open and download any document" },
  { slug: "documents.write", name: "Write documents", description: "Create, edit and delete documents" },
  { slug: "users.view", name: "View users", description: "See user profiles and their activity" },
  { slug: "users.edit", name: "Edit users", description: "Change user profiles and reset their access" },
  { slug: "admin.write", name: "Administer", description: "Change workspace settings" },
];

/** Roles carry permissions: a key's permissions are its own and its roles'. */
const DEMO_ROLES: readonly { name: string; description: string; permissions: readonly string[] }[] = [
  { name: "editor", description: "Writes and publishes documents", permissions: ["documents.read", "documents.write"] },
  { name: "reader", description: "Reads documents, changes nothing", permissions: ["documents.read"] },
  { name: "support", description: "Helps customers with their accounts", permissions: ["users.view", "users.edit"] },
];

/** An identity's rate limits are shared by all its keys (Acme has two): one counter per limit, whichever key is used. */
const DEMO_IDENTITIES: readonly Omit<NewIdentity, "workspaceId">[] = [
  {
    externalId: "org_acme",
    meta: { plan: "enterprise", seats: 40 },
    ratelimits: [
      { name: "requests", limit: 100, durationMs: 60_000, autoApply: true },
      { name: "tokens", limit: 50_000, durationMs: DAY_MS, autoApply: false },
    ],
  },
];

/**
 * A mix of every state the dashboard shows: enabled, disabled, expired, expiring soon, with and without meta,
 * credits (one runs out, one refills daily), rate limits, permissions and roles, identities (one with a rate limit).
 */
const DEMO_KEYS: readonly DemoKey[] = [
  {
    name: "Production backend",
    environment: "live",
    ageDays: 180,
    meta: { team: "platform", tier: "pro" },
    ratelimits: PER_SECOND(10),
    permissions: ["documents.read", "documents.write", "users.view"],
    roles: ["editor"],
  },
  {
    name: "Checkout service",
    environment: "live",
    ageDays: 150,
    meta: { team: "payments" },
    credits: 20,
    refill: { interval: "daily", amount: 20 },
  },
  { name: "Mobile app (iOS)", environment: "live", ageDays: 120, externalId: "app_ios", ratelimits: PER_SECOND(5) },
  {
    name: "Mobile app (Android)",
    environment: "live",
    ageDays: 118,
    externalId: "app_android",
    ratelimits: PER_SECOND(5),
  },
  { name: "Staging backend", environment: "test", ageDays: 110 },
  {
    name: "Billing webhook worker",
    environment: "live",
    ageDays: 96,
    meta: { team: "billing", rotatedBy: "alice" },
    credits: 5000,
    refill: { interval: "monthly", amount: 5000, refillDay: 1 },
  },
  { name: "Nightly data export", environment: "live", ageDays: 90, expiresInDays: -3 },
  {
    name: "Acme Corp integration",
    environment: "live",
    ageDays: 88,
    externalId: "org_acme",
    meta: { plan: "enterprise" },
    credits: 120,
  },
  { name: "Globex partner sync", environment: "live", ageDays: 75, externalId: "org_globex", enabled: false },
  { name: "Legacy v1 client", environment: "live", ageDays: 70, enabled: false, meta: { deprecated: true } },
  { name: "CI pipeline", environment: "test", ageDays: 64, meta: { repo: "keyscope/api" }, roles: ["reader"] },
  { name: "Load test runner", environment: "test", ageDays: 60, expiresInDays: 2 },
  {
    name: "Support console",
    environment: "live",
    ageDays: 55,
    permissions: ["users.view", "admin.write"],
    roles: ["support"],
  },
  { name: "Analytics ingest", environment: "live", ageDays: 48, meta: { region: "eu-west-1" } },
  { name: "Search indexer", environment: "live", ageDays: 41, expiresInDays: 5 },
  { name: "Marketing site forms", environment: "live", ageDays: 35, credits: 60 },
  { name: "Contractor access (Jordan)", environment: "test", ageDays: 30, expiresInDays: -10, enabled: false },
  { name: "Preview deployments", environment: "test", ageDays: 24 },
  { name: "Fraud scoring", environment: "live", ageDays: 20, meta: { team: "risk", owner: "sam@example.com" } },
  { name: "Local development (Priya)", environment: "test", ageDays: 14, expiresInDays: 1 },
  { name: "Inventory sync", environment: "live", ageDays: 10 },
  { name: "Hackathon prototype", environment: "test", ageDays: 8, expiresInDays: -1 },
  { name: "Edge functions", environment: "live", ageDays: 5, externalId: "org_acme" },
  { name: "Status page probe", environment: "live", ageDays: 3, expiresInDays: 30 },
  { name: "New onboarding flow", environment: "test", ageDays: 1, meta: { experiment: "onboarding-v2" } },
];

/** The demo's rate-limit namespace: decisions over 30 days (bursts refused), an override for a customer and a ban. */
export const DEMO_NAMESPACE = "api.requests";
export const DEMO_RATELIMIT_DECISIONS = 3_000;
const DEMO_OVERRIDES = [
  { identifier: "org_acme", limit: 600, durationMs: 60_000 },
  { identifier: "banned_*", limit: 0, durationMs: 60_000 },
] as const;

function recordDemoRatelimits(db: Database, workspaceId: string, now: number): void {
  const namespace = createNamespace(db, workspaceId, DEMO_NAMESPACE, now - 60 * DAY_MS);
  for (const override of DEMO_OVERRIDES)
    setOverride(db, { workspaceId, namespaceId: namespace.id, ...override, now: now - 40 * DAY_MS });
  recordRatelimitTraffic(db, {
    namespace,
    days: DEMO_TRAFFIC_DAYS,
    count: DEMO_RATELIMIT_DECISIONS,
    identifiers: ["org_acme", ...Array.from({ length: 30 }, (_, index) => `user_${index + 1}`), "banned_bot"],
    now,
    random: seededRandom(23),
  });
}

export interface DemoData {
  workspaceId: string;
  apiId: string;
  rootKeyId: string;
  /** The demo root key's secret: to be shown once, at creation. */
  rootKeySecret: string;
}

/** A seeded generator (mulberry32): the demo's traffic is the same on every first start. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 30 days of verifications through the verify code: the long-tailed mix of `recordTraffic`, a burst that
 * trips the busiest key's rate limit, and calls from a caller allowed only another API (FORBIDDEN).
 */
function recordDemoTraffic(db: Database, workspaceId: string, burstKeyHash: string, now: number): void {
  const store = createKeyStore(db);
  const random = seededRandom(11);
  recordTraffic(db, store, { workspaceId, days: DEMO_TRAFFIC_DAYS, count: DEMO_VERIFICATIONS, now, random });

  const burstAt = now - 5 * DAY_MS + 3_600_000;
  const burst = trafficReplayer(store, workspaceId);
  burst.batch(() => {
    for (let index = 0; index < 40; index += 1) {
      burst.verify({ keyHash: burstKeyHash, time: burstAt + index * 20, region: "us-east-1", tags: TRAFFIC_TAGS[0] });
    }
  });
  const outsider = trafficReplayer(store, workspaceId, { callerPermissions: ["api.api_elsewhere.verify_key"] });
  outsider.batch(() => {
    for (let index = 0; index < 12; index += 1) {
      outsider.verify({
        keyHash: burstKeyHash,
        time: now - (index + 1) * 2 * DAY_MS,
        region: "eu-west-1",
        tags: TRAFFIC_TAGS[2],
      });
    }
  });
}

/**
 * Creates the demo workspace, its API, keys, root key and 30 days of verifications when the database holds no
 * workspace yet. Returns undefined when it already does. Runs in one immediate transaction, so a server and an
 * admin command starting together create it once.
 */
export function ensureDemoData(db: Database, now = Date.now()): DemoData | undefined {
  const hasWorkspace = db.prepare("SELECT 1 FROM workspaces LIMIT 1").pluck();
  return db
    .transaction((): DemoData | undefined => {
      if (hasWorkspace.get() !== undefined) return undefined;
      const workspaceId = createWorkspace(db, "Demo workspace", now - 200 * DAY_MS);
      const apiId = createApi(db, workspaceId, "Demo API", now - 200 * DAY_MS);
      for (const permission of DEMO_PERMISSIONS) createPermission(db, workspaceId, permission, now - 200 * DAY_MS);
      for (const role of DEMO_ROLES)
        createRole(db, workspaceId, role.name, role.permissions, now - 200 * DAY_MS, role.description);
      for (const identity of DEMO_IDENTITIES)
        createIdentity(db, { ...identity, workspaceId, createdAt: now - 200 * DAY_MS });
      const insertKey = keyInserter(db);
      let burstKeyHash = "";
      for (const demo of DEMO_KEYS) {
        const { environment, ageDays, enabled, expiresInDays, ...rest } = demo;
        const secret = newApiKeySecret(environment);
        if (burstKeyHash === "") burstKeyHash = hashSecret(secret);
        insertKey({
          ...rest,
          workspaceId,
          apiId,
          secret,
          enabled: enabled ?? true,
          createdAt: now - ageDays * DAY_MS,
          ...(expiresInDays !== undefined && { expires: now + expiresInDays * DAY_MS }),
        });
      }
      recordDemoTraffic(db, workspaceId, burstKeyHash, now);
      recordDemoRatelimits(db, workspaceId, now);
      const rootKey = createRootKey(db, {
        workspaceId,
        name: "Demo root key",
        permissions: DEMO_ROOT_KEY_PERMISSIONS,
        ratelimit: DEMO_ROOT_KEY_RATELIMIT,
        createdAt: now,
      });
      return { workspaceId, apiId, rootKeyId: rootKey.id, rootKeySecret: rootKey.secret };
    })
    .immediate();
}
