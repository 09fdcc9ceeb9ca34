import { parseArgs } from "node:util";
import type { Database } from "better-sqlite3";
import {
  formatNamedRateLimit,
  formatRateLimit,
  parseCount,
  parseExpiry,
  parseMeta,
  parseDefaultPrefix,
  parseIpWhitelist,
  parseNameList,
  parsePermissions,
  parseRateLimit,
  parseRateLimits,
  parseRefill,
  parseSwitch,
  parseWhole,
  parseWholeIn,
  requireText,
  UsageError,
} from "./values";
import { seedKeys } from "./seed-keys";
import {
  changeRootKey,
  createApi,
  createIdentity,
  createRole,
  createRootKey,
  createWorkspace,
  deleteIdentity,
  findApi,
  findWorkspace,
  grantRole,
  keyInserter,
  keySpaceDefaults,
  listApis,
  listIdentities,
  listRoles,
  listRootKeys,
  setAnalyticsQueriesPerHour,
  setAnalyticsRetentionDays,
  updateApi,
  type ApiSettings,
  type RootKeyChange,
  type WorkspaceRow,
} from "../db/management";
import {
  ChangeRefused,
  deleteKey,
  findLiveKey,
  rerollKey,
  updateKey,
  type ChangedKey,
  type KeyUpdate,
} from "../db/key-changes";
import { openDatabase } from "../db/open";
import { runTraffic } from "./bulk";
import { DEFAULT_ROOT_KEY_PERMISSIONS, ensureDemoData } from "../demo-data";
import { DEFAULT_DATA_DIR } from "../paths";
import { createdSecret, newApiKeySecret, rerolledSecret } from "../secrets";

const USAGE = `Usage: npm run admin -- <command> [options] [--data-dir DIR] [--workspace ws_…]

Commands:
  root-key create [--name N] [--permissions P,…] [--ratelimit N/WINDOW]   prints the new secret
  root-key list                                                          id, name, start, permissions, state, rate limit
  root-key revoke KEY_ID | disable KEY_ID | enable KEY_ID
  keys create --name N [--api API_ID] [--expires ISO|+30d|=-3d] [--disabled]
              [--credits N] [--refill daily|monthly:AMOUNT] [--ratelimit [NAME=]N/WINDOW]…
              [--permissions P,…] [--roles R,…] [--external-id ID] [--meta JSON]
                                                                         prints "<keyId> <secret>"
  keys update KEY_ID [--name N] [--enabled | --disabled] [--expires ISO|+30d|none] [--credits N|unlimited]
              [--refill daily|monthly:AMOUNT|none] [--ratelimit [NAME=]N/WINDOW[:auto]|none]…
              [--permissions P,…] [--roles R,…] [--external-id ID|none] [--meta JSON|none]
                                                                         replaces what is given; prints the key id
  keys reroll KEY_ID [--expiration MS]                                   a new key with the same settings; the old
                                                                         one expires after MS (default 0: at once);
                                                                         prints "<keyId> <secret>"
  keys delete KEY_ID [--permanent]                                       prints the key id
  roles create --name N [--permissions P,…] [--description D]            prints the role id
  roles grant --name N --permissions P,…                                 adds permissions to a role; prints them all
  roles list                                                             name, permissions, keys
  identities create --external-id ID [--ratelimit [NAME=]N/WINDOW]… [--meta JSON]
                                                                         prints the identity id
  identities list                                                        external id, id, keys, rate limits
  identities delete ID_OR_EXTERNAL_ID                                    found by nothing from then on; its keys keep
                                                                         their external id without its rate limits
  keys seed --count N [--api API_ID]                                     prints how many keys were created
  traffic --days N --count M [--api API_ID]                              records M verifications over N days
  apis list                                                              id, name, keys, key-space defaults,
                                                                         protection, IP whitelist
  apis create --name N [--default-prefix P] [--default-bytes N] [--delete-protection on|off] [--ip-whitelist IP,…]
                                                                         prints the api id
  apis update API_ID [--default-prefix P|none] [--default-bytes N|none] [--delete-protection on|off]
              [--ip-whitelist IP,…|none]                                 keys.createKey's prefix and byte length when
                                                                         a request leaves them out; a protected API
                                                                         cannot be deleted (412); verifications from
                                                                         other addresses are FORBIDDEN
  workspaces create --name N [--retention-days N] [--analytics-quota N]  prints the workspace id
  workspaces update [--retention-days N] [--analytics-quota N|none]      for --workspace: how many days back
                                                                         analytics queries may reach (default 30), and
                                                                         how many it may run an hour (default the
                                                                         server's --analytics-quota)

Options:
  --data-dir DIR      the server's data directory (default ${DEFAULT_DATA_DIR})
  --workspace ws_…    act on this workspace instead of the first one
  --permissions P,…   root keys: api.*.<action> or api.<apiId>.<action> (read_key, verify_key, read_analytics,
                      create_key, update_key, delete_key, read_api, create_api, delete_api, decrypt_key, encrypt_key),
                      rbac.*.<action> (add_permission_to_key, remove_permission_from_key, add_role_to_key,
                      remove_role_from_key, create_permission, create_role, read_permission, read_role),
                      identity.*.read_identity (default ${DEFAULT_ROOT_KEY_PERMISSIONS.join(",")}); or the real
                      service's URN form, unkey:v1:<workspaceId>:<resource>#<action>, e.g.
                      unkey:v1:ws_…:keyspaces/<apiId>/keys/*#read_key (docs/api.md#urn-form-permissions);
                      keys: their own, e.g. documents.read
  --ratelimit N/W     e.g. 300/60s, 1000/1m; no limit unless given. On a key or an identity, repeatable: N/W is
                      the limit "requests", checked on every verification; NAME=N/W (e.g. tokens=50000/1h) is
                      checked only when a verification names it, or on every one with :auto after it
                      (tokens=100/1m:auto). An identity's limits are shared by its keys.
  --help              show this help
`;

/** The flags parseArgs accepts; the usage and docs/admin-cli.md describe each (test/tooling/cli-docs.test.ts). */
export const ADMIN_OPTIONS = {
  "data-dir": { type: "string" },
  workspace: { type: "string" },
  name: { type: "string" },
  permissions: { type: "string" },
  ratelimit: { type: "string", multiple: true },
  api: { type: "string" },
  expires: { type: "string" },
  disabled: { type: "boolean" },
  count: { type: "string" },
  credits: { type: "string" },
  refill: { type: "string" },
  roles: { type: "string" },
  "external-id": { type: "string" },
  meta: { type: "string" },
  days: { type: "string" },
  enabled: { type: "boolean" },
  permanent: { type: "boolean" },
  expiration: { type: "string" },
  "default-prefix": { type: "string" },
  "default-bytes": { type: "string" },
  "delete-protection": { type: "string" },
  description: { type: "string" },
  "retention-days": { type: "string" },
  "ip-whitelist": { type: "string" },
  "analytics-quota": { type: "string" },
  help: { type: "boolean" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof ADMIN_OPTIONS; allowPositionals: true }>>["values"];
type OptionName = keyof typeof ADMIN_OPTIONS;

/** Options every command takes. */
const COMMON: readonly OptionName[] = ["data-dir", "workspace", "help"];
const MAX_SEED_COUNT = 10_000_000;
const MAX_TRAFFIC_COUNT = 100_000_000;
const MAX_TRAFFIC_DAYS = 3650;
/** A workspace's analytics retention, in days: the real service keeps it in 16 bits. */
const MAX_RETENTION_DAYS = 65_535;
const MAX_ANALYTICS_QUOTA = 1_000_000_000;

class CommandError extends Error {}

/** Where a run writes: the process's streams for `npm run admin`, buffers for a test or a fixture in-process. */
export interface AdminIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Progress bars go to stderr only when it is a terminal. */
  stderrIsTTY: boolean;
}

interface Command {
  options: readonly OptionName[];
  /** How many positional arguments follow the command's two words. */
  argumentCount: number;
  /** Only reads: on a data directory without a database it fails instead of creating one with a demo workspace. */
  reads?: boolean;
  run(db: Database, workspace: WorkspaceRow, values: Values, args: readonly string[], io: AdminIo): string;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function rootKeyChange(change: RootKeyChange, pastTense: string): Command {
  return {
    options: [],
    argumentCount: 1,
    run(db, workspace, _values, [rootKeyId = ""]) {
      if (!changeRootKey(db, workspace.id, rootKeyId, change)) {
        throw new CommandError(`no root key ${rootKeyId} that can be ${pastTense} in workspace ${workspace.id}`);
      }
      return `${rootKeyId} ${pastTense}`;
    },
  };
}

/** The one value of a repeatable option that this command takes once. */
function single(flag: string, values: readonly string[]): string {
  if (values.length !== 1) throw new UsageError(`${flag} is given ${values.length} times; this command takes it once`);
  return values[0] ?? "";
}

function requireRoleName(value: string | undefined): string {
  const name = requireText("--name", value);
  if (parseNameList("--name", name).length !== 1) throw new UsageError(`--name takes one role name, got "${name}"`);
  return name;
}

function apiOf(db: Database, workspace: WorkspaceRow, apiId: string | undefined): string {
  const api = findApi(db, workspace.id, apiId);
  if (api === undefined) {
    throw new CommandError(
      apiId === undefined
        ? `workspace ${workspace.id} has no API yet; create one with "apis create --name N"`
        : `no API ${apiId} in workspace ${workspace.id}`,
    );
  }
  return api.id;
}

/** Runs `change` on a live key of the workspace in one transaction; a refusal (an unknown role) is the command's error. */
function changeKey<T>(db: Database, workspace: WorkspaceRow, keyId: string, change: (key: ChangedKey) => T): T {
  try {
    return db
      .transaction(() => {
        const key = findLiveKey(db, workspace.id, keyId);
        if (key === undefined)
          throw new CommandError(`no key ${keyId} in workspace ${workspace.id} (or it is deleted)`);
        return change(key);
      })
      .immediate();
  } catch (error) {
    if (error instanceof ChangeRefused) throw new CommandError(error.detail);
    throw error;
  }
}

const CLEAR = "none";

/** `apis create`'s and `apis update`'s key-space options; `none` clears a default (update only). */
function apiSettingsOf(values: Values, clearable: boolean): ApiSettings {
  const settings: ApiSettings = {};
  const prefix = values["default-prefix"];
  const bytes = values["default-bytes"];
  if (prefix !== undefined) settings.defaultPrefix = clearable && prefix === CLEAR ? null : parseDefaultPrefix(prefix);
  if (bytes !== undefined)
    settings.defaultBytes = clearable && bytes === CLEAR ? null : parseWholeIn("--default-bytes", bytes, 16, 255);
  if (values["delete-protection"] !== undefined)
    settings.deleteProtection = parseSwitch("--delete-protection", values["delete-protection"]);
  const whitelist = values["ip-whitelist"];
  if (whitelist !== undefined)
    settings.ipWhitelist = clearable && whitelist === CLEAR ? null : parseIpWhitelist(whitelist);
  return settings;
}

/** `workspaces create`'s and `workspaces update`'s analytics options; `none` gives the quota back to the server's flag. */
function analyticsOptionsOf(
  values: Values,
  clearable: boolean,
): { retentionDays?: number; queriesPerHour?: number | null } {
  const options: { retentionDays?: number; queriesPerHour?: number | null } = {};
  if (values["retention-days"] !== undefined)
    options.retentionDays = parseWholeIn("--retention-days", values["retention-days"], 1, MAX_RETENTION_DAYS);
  const quota = values["analytics-quota"];
  if (quota !== undefined)
    options.queriesPerHour =
      clearable && quota === CLEAR ? null : parseWholeIn("--analytics-quota", quota, 1, MAX_ANALYTICS_QUOTA);
  return options;
}

function setAnalyticsOptions(
  db: Database,
  workspaceId: string,
  options: { retentionDays?: number; queriesPerHour?: number | null },
): void {
  if (options.retentionDays !== undefined) setAnalyticsRetentionDays(db, workspaceId, options.retentionDays);
  if (options.queriesPerHour !== undefined) setAnalyticsQueriesPerHour(db, workspaceId, options.queriesPerHour);
}

/** `keys update`'s options as the change keys.updateKey makes: `none` clears a value, as `null` does there. */
function keyUpdateOf(values: Values, now: number): KeyUpdate {
  const update: KeyUpdate = {};
  if (values.enabled === true && values.disabled === true)
    throw new UsageError("--enabled and --disabled contradict each other");
  if (values.name !== undefined) update.name = requireText("--name", values.name);
  if (values.enabled === true) update.enabled = true;
  if (values.disabled === true) update.enabled = false;
  if (values.expires !== undefined) update.expires = values.expires === CLEAR ? null : parseExpiry(values.expires, now);
  if (values.credits !== undefined || values.refill !== undefined) {
    update.credits = {};
    if (values.credits !== undefined)
      update.credits.remaining = values.credits === "unlimited" ? null : parseWhole("--credits", values.credits);
    if (values.refill !== undefined)
      update.credits.refill = values.refill === CLEAR ? null : parseRefill(values.refill);
  }
  if (values.ratelimit !== undefined) {
    update.ratelimits =
      values.ratelimit.length === 1 && values.ratelimit[0] === CLEAR ? [] : parseRateLimits(values.ratelimit);
  }
  if (values.permissions !== undefined) update.permissions = parseNameList("--permissions", values.permissions);
  if (values.roles !== undefined) update.roles = parseNameList("--roles", values.roles);
  if (values["external-id"] !== undefined) {
    update.externalId = values["external-id"] === CLEAR ? null : requireText("--external-id", values["external-id"]);
  }
  if (values.meta !== undefined) update.meta = values.meta === CLEAR ? null : parseMeta(values.meta);
  return update;
}

const COMMANDS: Record<string, Command> = {
  "root-key create": {
    options: ["name", "permissions", "ratelimit"],
    argumentCount: 0,
    run(db, workspace, values) {
      const ratelimit =
        values.ratelimit === undefined ? undefined : parseRateLimit(single("--ratelimit", values.ratelimit));
      const { secret } = createRootKey(db, {
        workspaceId: workspace.id,
        name: values.name === undefined ? "Root key (admin CLI)" : requireText("--name", values.name),
        permissions:
          values.permissions === undefined
            ? DEFAULT_ROOT_KEY_PERMISSIONS
            : parsePermissions(values.permissions, workspace.id),
        ...(ratelimit !== undefined && { ratelimit }),
      });
      return secret;
    },
  },
  "root-key list": {
    options: [],
    argumentCount: 0,
    reads: true,
    run(db, workspace) {
      const rows = listRootKeys(db, workspace.id).map((key) => [
        key.id,
        key.name,
        `${key.start}…`,
        key.permissions.join(",") || "-",
        key.state,
        key.ratelimit === null ? "-" : formatRateLimit(key.ratelimit),
      ]);
      return table(["ID", "NAME", "START", "PERMISSIONS", "STATE", "RATELIMIT"], rows);
    },
  },
  "root-key revoke": rootKeyChange("revoke", "revoked"),
  "root-key disable": rootKeyChange("disable", "disabled"),
  "root-key enable": rootKeyChange("enable", "enabled"),
  "keys create": {
    options: [
      "name",
      "api",
      "expires",
      "disabled",
      "credits",
      "refill",
      "ratelimit",
      "permissions",
      "roles",
      "external-id",
      "meta",
    ],
    argumentCount: 0,
    run(db, workspace, values) {
      const now = Date.now();
      const name = requireText("--name", values.name);
      const expires = values.expires === undefined ? undefined : parseExpiry(values.expires, now);
      const refill = values.refill === undefined ? undefined : parseRefill(values.refill);
      // A refill without a starting balance starts full.
      const credits = values.credits === undefined ? refill?.amount : parseWhole("--credits", values.credits);
      const ratelimits = values.ratelimit === undefined ? undefined : parseRateLimits(values.ratelimit);
      const externalId =
        values["external-id"] === undefined ? undefined : requireText("--external-id", values["external-id"]);
      let secret = "";
      // IMMEDIATE: the write lock first, waited for up to the busy timeout. A deferred transaction that reads and then
      // writes fails at once (SQLITE_BUSY_SNAPSHOT) when another process committed in between.
      const keyId = db
        .transaction(() => {
          const apiId = apiOf(db, workspace, values.api);
          // An API with a default prefix or byte length gets keys of its own form, as from keys.createKey; `sk_live_…` otherwise.
          const keySpace = keySpaceDefaults(db, apiId);
          secret =
            keySpace.defaultPrefix === null && keySpace.defaultBytes === null
              ? newApiKeySecret("live")
              : createdSecret({}, keySpace);
          return keyInserter(db)({
            workspaceId: workspace.id,
            apiId,
            name,
            secret,
            enabled: values.disabled !== true,
            createdAt: now,
            ...(expires !== undefined && { expires }),
            ...(credits !== undefined && { credits }),
            ...(refill !== undefined && { refill }),
            ...(ratelimits !== undefined && { ratelimits }),
            ...(values.permissions !== undefined && {
              permissions: parseNameList("--permissions", values.permissions),
            }),
            ...(values.roles !== undefined && { roles: parseNameList("--roles", values.roles) }),
            ...(externalId !== undefined && { externalId }),
            ...(values.meta !== undefined && { meta: parseMeta(values.meta) }),
          });
        })
        .immediate();
      return `${keyId} ${secret}`;
    },
  },
  "keys update": {
    options: [
      "name",
      "enabled",
      "disabled",
      "expires",
      "credits",
      "refill",
      "ratelimit",
      "permissions",
      "roles",
      "external-id",
      "meta",
    ],
    argumentCount: 1,
    run(db, workspace, values, [keyId = ""]) {
      const update = keyUpdateOf(values, Date.now());
      if (Object.keys(update).length === 0)
        throw new UsageError(`"keys update" needs at least one thing to change, like --name or --credits`);
      changeKey(db, workspace, keyId, (key) => updateKey(db, key, update, Date.now()));
      return keyId;
    },
  },
  "keys reroll": {
    options: ["expiration"],
    argumentCount: 1,
    run(db, workspace, values, [keyId = ""]) {
      const expiration = values.expiration === undefined ? 0 : parseWhole("--expiration", values.expiration);
      let secret = "";
      const newKeyId = changeKey(db, workspace, keyId, (key) => {
        secret = rerolledSecret(key.start, keySpaceDefaults(db, key.apiId));
        return rerollKey(db, key, secret, expiration, Date.now());
      });
      return `${newKeyId} ${secret}`;
    },
  },
  "keys delete": {
    options: ["permanent"],
    argumentCount: 1,
    run(db, workspace, values, [keyId = ""]) {
      changeKey(db, workspace, keyId, (key) => deleteKey(db, key.id, values.permanent === true, Date.now()));
      return keyId;
    },
  },
  "keys seed": {
    options: ["count", "api"],
    argumentCount: 0,
    run(db, workspace, values, _args, io) {
      const count = parseCount(requireText("--count", values.count), MAX_SEED_COUNT);
      const apiId = apiOf(db, workspace, values.api);
      const created = seedKeys(db, {
        workspaceId: workspace.id,
        apiId,
        count,
        ...(io.stderrIsTTY && { onProgress: progressBar(io) }),
      });
      if (io.stderrIsTTY) io.stderr("\n");
      return String(created);
    },
  },
  "roles create": {
    options: ["name", "permissions", "description"],
    argumentCount: 0,
    run(db, workspace, values) {
      const permissions = values.permissions === undefined ? [] : parseNameList("--permissions", values.permissions);
      const description =
        values.description === undefined ? undefined : requireText("--description", values.description);
      return createRole(db, workspace.id, requireRoleName(values.name), permissions, Date.now(), description);
    },
  },
  "roles grant": {
    options: ["name", "permissions"],
    argumentCount: 0,
    run(db, workspace, values) {
      const name = requireRoleName(values.name);
      const permissions = parseNameList("--permissions", requireText("--permissions", values.permissions));
      if (permissions.length === 0)
        throw new UsageError("--permissions must name at least one permission, like documents.read");
      const all = grantRole(db, workspace.id, name, permissions);
      if (all === undefined)
        throw new CommandError(
          `no role "${name}" in workspace ${workspace.id}; create it with "roles create --name ${name}"`,
        );
      return all.join(",");
    },
  },
  "roles list": {
    options: [],
    argumentCount: 0,
    reads: true,
    run(db, workspace) {
      const rows = listRoles(db, workspace.id).map((role) => [
        role.name,
        role.id,
        role.permissions.join(",") || "-",
        String(role.keyCount),
      ]);
      return table(["NAME", "ID", "PERMISSIONS", "KEYS"], rows);
    },
  },
  "identities create": {
    options: ["external-id", "ratelimit", "meta"],
    argumentCount: 0,
    run(db, workspace, values) {
      const externalId = requireText("--external-id", values["external-id"]);
      const ratelimits = values.ratelimit === undefined ? undefined : parseRateLimits(values.ratelimit);
      return createIdentity(db, {
        workspaceId: workspace.id,
        externalId,
        ...(ratelimits !== undefined && { ratelimits }),
        ...(values.meta !== undefined && { meta: parseMeta(values.meta) }),
      });
    },
  },
  "identities list": {
    options: [],
    argumentCount: 0,
    reads: true,
    run(db, workspace) {
      const rows = listIdentities(db, workspace.id).map((identity) => [
        identity.externalId,
        identity.id,
        String(identity.keyCount),
        identity.ratelimits.map(formatNamedRateLimit).join(",") || "-",
      ]);
      return table(["EXTERNAL ID", "ID", "KEYS", "RATELIMITS"], rows);
    },
  },
  "identities delete": {
    options: [],
    argumentCount: 1,
    run(db, workspace, _values, [identity = ""]) {
      if (!deleteIdentity(db, workspace.id, identity))
        throw new CommandError(`no identity ${identity} in workspace ${workspace.id} (or it is deleted)`);
      return identity;
    },
  },
  "apis list": {
    options: [],
    argumentCount: 0,
    reads: true,
    run(db, workspace) {
      const rows = listApis(db, workspace.id).map((api) => [
        api.id,
        api.name,
        String(api.keyCount),
        api.defaultPrefix ?? "-",
        api.defaultBytes === null ? "-" : String(api.defaultBytes),
        api.deleteProtection ? "on" : "off",
        api.ipWhitelist ?? "-",
      ]);
      return table(
        ["ID", "NAME", "KEYS", "DEFAULT PREFIX", "DEFAULT BYTES", "DELETE PROTECTION", "IP WHITELIST"],
        rows,
      );
    },
  },
  "apis create": {
    options: ["name", "default-prefix", "default-bytes", "delete-protection", "ip-whitelist"],
    argumentCount: 0,
    run(db, workspace, values) {
      const name = requireText("--name", values.name);
      const settings = apiSettingsOf(values, false);
      return db.transaction(() => createApi(db, workspace.id, name, Date.now(), settings)).immediate();
    },
  },
  "apis update": {
    options: ["default-prefix", "default-bytes", "delete-protection", "ip-whitelist"],
    argumentCount: 1,
    run(db, workspace, values, [apiId = ""]) {
      const settings = apiSettingsOf(values, true);
      if (Object.keys(settings).length === 0) {
        throw new UsageError(
          `"apis update" needs at least one thing to change: --default-prefix, --default-bytes, --delete-protection or --ip-whitelist`,
        );
      }
      db.transaction(() => updateApi(db, apiOf(db, workspace, apiId), settings)).immediate();
      return apiId;
    },
  },
  "workspaces create": {
    options: ["name", "retention-days", "analytics-quota"],
    argumentCount: 0,
    run(db, _workspace, values) {
      const name = requireText("--name", values.name);
      const options = analyticsOptionsOf(values, false);
      return db
        .transaction(() => {
          const id = createWorkspace(db, name);
          setAnalyticsOptions(db, id, options);
          return id;
        })
        .immediate();
    },
  },
  "workspaces update": {
    options: ["retention-days", "analytics-quota"],
    argumentCount: 0,
    run(db, workspace, values) {
      const options = analyticsOptionsOf(values, true);
      if (Object.keys(options).length === 0)
        throw new UsageError(`"workspaces update" needs --retention-days or --analytics-quota`);
      db.transaction(() => setAnalyticsOptions(db, workspace.id, options)).immediate();
      return workspace.id;
    },
  },
  traffic: {
    options: ["days", "count", "api"],
    argumentCount: 0,
    run(db, workspace, values, _args, io) {
      const days = parseCount(requireText("--days", values.days), MAX_TRAFFIC_DAYS);
      const count = parseCount(requireText("--count", values.count), MAX_TRAFFIC_COUNT);
      const apiId = values.api === undefined ? undefined : apiOf(db, workspace, values.api);
      const { outcomes, analytics } = runTraffic(
        db,
        {
          workspaceId: workspace.id,
          days,
          count,
          ...(apiId !== undefined && { apiId }),
          ...(io.stderrIsTTY && { onProgress: progressBar(io) }),
        },
        { progress: io.stderrIsTTY, stderr: (text) => io.stderr(text) },
      );
      io.stderr(`${analytics}\n`);
      return Object.entries(outcomes)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([outcome, n]) => `${outcome} ${n}`)
        .join("\n");
    },
  },
};

/** Every command line's command, such as "keys create"; the usage and docs/admin-cli.md name each. */
export const ADMIN_COMMANDS: readonly string[] = Object.keys(COMMANDS);

function progressBar(io: AdminIo): (done: number, total: number) => void {
  return (done, total) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    const percent = String(Math.floor((done / total) * 100)).padStart(3);
    io.stderr(
      `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${percent}% ${done.toLocaleString("en")}/${total.toLocaleString("en")}`,
    );
  };
}

function parseCommandLine(argv: readonly string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args: [...argv], options: ADMIN_OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split(". ")[0] ?? message);
  }
}

function run(argv: readonly string[], io: AdminIo): string | undefined {
  const { values, positionals } = parseCommandLine(argv);
  if (values.help === true) {
    io.stdout(USAGE);
    return undefined;
  }
  if (positionals.length === 0) {
    io.stderr(USAGE);
    throw new UsageError("no command given");
  }
  const [group = "", action = "", ...rest] = positionals;
  // `traffic` is one word; the other commands are "<group> <action>".
  const oneWord = Object.hasOwn(COMMANDS, group);
  const name = oneWord ? group : `${group} ${action}`;
  const args = oneWord ? positionals.slice(1) : rest;
  const command = COMMANDS[name];
  if (command === undefined) throw new UsageError(`unknown command "${positionals.slice(0, 2).join(" ")}"`);
  if (args.length !== command.argumentCount) {
    throw new UsageError(
      `"${name}" takes ${command.argumentCount === 0 ? "no arguments" : `${command.argumentCount} argument`}, got ${args.length}`,
    );
  }
  const allowed: ReadonlySet<string> = new Set([...COMMON, ...command.options]);
  const stray = Object.keys(values).find((option) => !allowed.has(option));
  if (stray !== undefined) throw new UsageError(`"${name}" does not take --${stray}`);

  const db = openDatabase(values["data-dir"] ?? DEFAULT_DATA_DIR, { create: command.reads !== true });
  try {
    const demo = command.reads === true ? undefined : ensureDemoData(db);
    if (demo !== undefined) {
      io.stderr(
        `Created the demo workspace ${demo.workspaceId} with its API and keys (its demo root key is not shown here; create one with "root-key create").\n`,
      );
    }
    const workspace = findWorkspace(db, values.workspace);
    if (workspace === undefined) throw new CommandError(`no workspace ${values.workspace ?? ""}`);
    return command.run(db, workspace, values, args, io);
  } finally {
    db.close();
  }
}

/** Runs one admin command line (without `node admin.ts`); returns the exit code: 0, 1 (failed) or 2 (usage). */
export function runAdmin(argv: readonly string[], io: AdminIo): number {
  try {
    const result = run(argv, io);
    if (result !== undefined && result !== "") io.stdout(`${result}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`keyscope admin: ${message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
