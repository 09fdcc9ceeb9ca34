import { CommandError, table, type Command } from "../command";
import { parseNameList, requireText, UsageError } from "../values";
import { createRole, grantRole, listRoles } from "../../db/rbac";

/** `roles create`, `grant` and `list`. */

function requireRoleName(value: string | undefined): string {
  const name = requireText("--name", value);
  if (parseNameList("--name", name).length !== 1) throw new UsageError(`--name takes one role name, got "${name}"`);
  return name;
}

export const ROLE_COMMANDS: Record<string, Command> = {
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
};
