import { parseArgs } from "node:util";
import { UsageError } from "./values";
import { findWorkspace } from "../db/workspaces";
import { openDatabase } from "../db/open";
import { DEFAULT_ROOT_KEY_PERMISSIONS, ensureDemoData } from "../db/demo-data";
import { DEFAULT_DATA_DIR } from "../process/paths";
import { ADMIN_OPTIONS, CommandError, type AdminIo, type Command, type OptionName, type Values } from "./command";
import { API_COMMANDS } from "./commands/apis";
import { IDENTITY_COMMANDS } from "./commands/identities";
import { KEY_COMMANDS } from "./commands/keys";
import { MIGRATION_COMMANDS } from "./commands/migrations";
import { PERMISSION_COMMANDS } from "./commands/permissions";
import { RATELIMIT_COMMANDS } from "./commands/ratelimits";
import { ROLE_COMMANDS } from "./commands/roles";
import { ROOT_KEY_COMMANDS } from "./commands/root-keys";
import { TRAFFIC_COMMANDS } from "./commands/traffic";
import { WORKSPACE_COMMANDS } from "./commands/workspaces";

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
  permissions create --slug S [--name N] [--description D]               prints the permission id (the name is the
                                                                         slug unless given)
  permissions list                                                       slug, id, name, description
  identities create --external-id ID [--ratelimit [NAME=]N/WINDOW]… [--meta JSON]
                                                                         prints the identity id
  identities list                                                        external id, id, keys, rate limits
  identities delete ID_OR_EXTERNAL_ID                                    found by nothing from then on; its keys lose
                                                                         it and its rate limits
  migrations create --algorithm sha256|github.com/seamapi/prefixed-api-key
                                                                         prints the migration id keys.migrateKeys
                                                                         imports keys under
  migrations list                                                        id, algorithm, keys waiting for their first
                                                                         verification
  keys seed --count N [--api API_ID]                                     prints how many keys were created
  traffic --days N --count M [--api API_ID]                              records M verifications over N days
  traffic --days N --count M --namespace NS                              records M rate-limit decisions over N
                                                                         days in the namespace (some blocked)
  namespaces create --name N                                             prints the namespace id
  namespaces list                                                        name, id, overrides, decisions, state
  namespaces delete NAME_OR_ID                                           limits in it are 410 from then on
  overrides set --namespace NS --identifier I --ratelimit N/WINDOW      I may hold * wildcards (premium_*); N may
                                                                         be 0 (blocks); prints the override id
  overrides list --namespace NS                                          identifier, id, rate limit
  overrides delete --namespace NS --identifier I                         I exactly as set; prints the override id
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
                      remove_role_from_key, create_permission, read_permission, delete_permission, create_role,
                      read_role, delete_role, add_permission_to_role, remove_permission_from_role),
                      identity.*.<action> (create_identity, read_identity, update_identity, delete_identity),
                      ratelimit.*.<action> or ratelimit.<namespaceId>.<action> (limit, create_namespace,
                      set_override, read_override, delete_override, read_analytics)
                      (default ${DEFAULT_ROOT_KEY_PERMISSIONS.join(",")}); or the real
                      service's URN form, unkey:v1:<workspaceId>:<resource>#<action>, e.g.
                      unkey:v1:ws_…:keyspaces/<apiId>/keys/*#read_key (docs/api.md#urn-form-permissions);
                      keys: their own, e.g. documents.read
  --ratelimit N/W     e.g. 300/60s, 1000/1m; no limit unless given. On a key or an identity, repeatable: N/W is
                      the limit "requests", checked on every verification; NAME=N/W (e.g. tokens=50000/1h) is
                      checked only when a verification names it, or on every one with :auto after it
                      (tokens=100/1m:auto). An identity's limits are shared by its keys. On an override, N may
                      be 0 (blocks) and the window is at least 1s.
  --namespace NS      a rate-limit namespace's name or id (overrides, traffic)
  --identifier I      who an override limits: an identifier, or a pattern with * wildcards (premium_*)
  --help              show this help
`;

/** Options every command takes. */
const COMMON: readonly OptionName[] = ["data-dir", "workspace", "help"];

const COMMANDS: Record<string, Command> = {
  ...ROOT_KEY_COMMANDS,
  ...KEY_COMMANDS,
  ...ROLE_COMMANDS,
  ...PERMISSION_COMMANDS,
  ...IDENTITY_COMMANDS,
  ...MIGRATION_COMMANDS,
  ...API_COMMANDS,
  ...WORKSPACE_COMMANDS,
  ...TRAFFIC_COMMANDS,
  ...RATELIMIT_COMMANDS,
};

/** Every command line's command, such as "keys create"; the usage and docs/admin-cli.md name each. */
export const ADMIN_COMMANDS: readonly string[] = Object.keys(COMMANDS);

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
