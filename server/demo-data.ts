import type { Database } from "better-sqlite3";
import { createApi, createRootKey, createWorkspace, keyInserter, type NewKey } from "./db/management";
import { READ_ANY_API_KEYS } from "./permissions";
import { newApiKeySecret } from "./secrets";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a root key may do unless told otherwise: read the keys of every API. */
export const DEFAULT_ROOT_KEY_PERMISSIONS = [READ_ANY_API_KEYS] as const;
export const DEMO_ROOT_KEY_RATELIMIT = { limit: 300, windowMs: 60_000 } as const;

type DemoKey = Pick<NewKey, "name" | "meta" | "externalId"> & {
  environment: "live" | "test";
  /** How long ago the key was created. */
  ageDays: number;
  enabled?: boolean;
  /** Days from now until it expires; negative when it already has. */
  expiresInDays?: number;
};

/** A mix of every state the dashboard shows: enabled, disabled, expired, expiring soon, with and without meta. */
const DEMO_KEYS: readonly DemoKey[] = [
  { name: "Production backend", environment: "live", ageDays: 180, meta: { team: "platform", tier: "pro" } },
  { name: "Checkout service", environment: "live", ageDays: 150, meta: { team: "payments" } },
  { name: "Mobile app (iOS)", environment: "live", ageDays: 120, externalId: "app_ios" },
  { name: "Mobile app (Android)", environment: "live", ageDays: 118, externalId: "app_android" },
  { name: "Staging backend", environment: "test", ageDays: 110 },
  { name: "Billing webhook worker", environment: "live", ageDays: 96, meta: { team: "billing", rotatedBy: "alice" } },
  { name: "Nightly data export", environment: "live", ageDays: 90, expiresInDays: -3 },
  { name: "Acme Corp integration", environment: "live", ageDays: 88, externalId: "org_acme", meta: { plan: "enterprise" } },
  { name: "Globex partner sync", environment: "live", ageDays: 75, externalId: "org_globex", enabled: false },
  { name: "Legacy v1 client", environment: "live", ageDays: 70, enabled: false, meta: { deprecated: true } },
  { name: "CI pipeline", environment: "test", ageDays: 64, meta: { repo: "keyscope/api" } },
  { name: "Load test runner", environment: "test", ageDays: 60, expiresInDays: 2 },
  { name: "Support console", environment: "live", ageDays: 55 },
  { name: "Analytics ingest", environment: "live", ageDays: 48, meta: { region: "eu-west-1" } },
  { name: "Search indexer", environment: "live", ageDays: 41, expiresInDays: 5 },
  { name: "Marketing site forms", environment: "live", ageDays: 35 },
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

export interface DemoData {
  workspaceId: string;
  apiId: string;
  rootKeyId: string;
  /** The demo root key's secret: to be shown once, at creation. */
  rootKeySecret: string;
}

/**
 * Creates the demo workspace, its API, keys and root key when the database holds no workspace yet.
 * Returns undefined when it already does. Runs in one immediate transaction, so a server and an
 * admin command starting together create it once.
 */
export function ensureDemoData(db: Database, now = Date.now()): DemoData | undefined {
  const hasWorkspace = db.prepare("SELECT 1 FROM workspaces LIMIT 1").pluck();
  return db
    .transaction((): DemoData | undefined => {
      if (hasWorkspace.get() !== undefined) return undefined;
      const workspaceId = createWorkspace(db, "Demo workspace", now - 200 * DAY_MS);
      const apiId = createApi(db, workspaceId, "Demo API", now - 200 * DAY_MS);
      const insertKey = keyInserter(db);
      for (const demo of DEMO_KEYS) {
        insertKey({
          workspaceId,
          apiId,
          name: demo.name,
          secret: newApiKeySecret(demo.environment),
          enabled: demo.enabled ?? true,
          createdAt: now - demo.ageDays * DAY_MS,
          ...(demo.expiresInDays !== undefined && { expires: now + demo.expiresInDays * DAY_MS }),
          ...(demo.meta !== undefined && { meta: demo.meta }),
          ...(demo.externalId !== undefined && { externalId: demo.externalId }),
        });
      }
      const rootKey = createRootKey(db, {
        workspaceId,
        name: "Demo root key",
        permissions: DEFAULT_ROOT_KEY_PERMISSIONS,
        ratelimit: DEMO_ROOT_KEY_RATELIMIT,
        createdAt: now,
      });
      return { workspaceId, apiId, rootKeyId: rootKey.id, rootKeySecret: rootKey.secret };
    })
    .immediate();
}
