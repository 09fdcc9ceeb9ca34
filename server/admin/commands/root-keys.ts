import { CommandError, single, table, type Command } from "../command";
import { formatRateLimit, parsePermissions, parseRateLimit, requireText } from "../values";
import { changeRootKey, createRootKey, listRootKeys, type RootKeyChange } from "../../db/root-keys";
import { DEFAULT_ROOT_KEY_PERMISSIONS } from "../../db/demo-data";

/** `root-key create`, `list`, `revoke`, `disable` and `enable`. */

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

export const ROOT_KEY_COMMANDS: Record<string, Command> = {
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
};
