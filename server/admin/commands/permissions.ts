import { CommandError, table, type Command } from "../command";
import { parseNameList, requireText, UsageError } from "../values";
import { ConflictError } from "../../db/conflict-error";
import { createPermission, listPermissions } from "../../db/rbac";

/** `permissions create` and `list`: the workspace's catalogue of permissions, as permissions.createPermission makes it. */

export const PERMISSION_COMMANDS: Record<string, Command> = {
  "permissions create": {
    options: ["slug", "name", "description"],
    argumentCount: 0,
    run(db, workspace, values) {
      const slug = requireText("--slug", values.slug);
      if (parseNameList("--slug", slug).length !== 1) throw new UsageError(`--slug takes one slug, got "${slug}"`);
      const name = values.name === undefined ? slug : requireText("--name", values.name);
      const description =
        values.description === undefined ? undefined : requireText("--description", values.description);
      try {
        return createPermission(db, workspace.id, { name, slug, description });
      } catch (error) {
        if (error instanceof ConflictError) throw new CommandError(error.message);
        throw error;
      }
    },
  },
  "permissions list": {
    options: [],
    argumentCount: 0,
    reads: true,
    run(db, workspace) {
      const rows = listPermissions(db, workspace.id).map((permission) => [
        permission.slug,
        permission.id,
        permission.name,
        permission.description ?? "-",
      ]);
      return table(["SLUG", "ID", "NAME", "DESCRIPTION"], rows);
    },
  },
};
