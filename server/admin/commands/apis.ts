import { apiOf, CLEAR, table, type Command, type Values } from "../command";
import { parseDefaultPrefix, parseIpWhitelist, parseSwitch, parseWholeIn, requireText, UsageError } from "../values";
import { createApi, listApis, updateApi, type ApiSettings } from "../../db/apis";

/** `apis list`, `create` and `update`. */

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

export const API_COMMANDS: Record<string, Command> = {
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
};
