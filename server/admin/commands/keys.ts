import { apiOf, changeKey, CLEAR, progressBar, type Command, type Values } from "../command";
import {
  parseCount,
  parseExpiry,
  parseMeta,
  parseNameList,
  parseRateLimits,
  parseRefill,
  parseWhole,
  requireText,
  UsageError,
} from "../values";
import { seedKeys } from "../seed-keys";
import { keySpaceDefaults } from "../../db/apis";
import { deleteKey, keyInserter, rerollKey, updateKey, type KeyUpdate } from "../../db/keys";
import { createdSecret, newApiKeySecret, rerolledSecret } from "../../keys/secrets";

/** `keys create`, `update`, `reroll`, `delete` and `seed`. */

const MAX_SEED_COUNT = 10_000_000;

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

export const KEY_COMMANDS: Record<string, Command> = {
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
};
