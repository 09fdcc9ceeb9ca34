import type { Database } from "better-sqlite3";
import { CommandError, single, table, type Command } from "../command";
import { formatRateLimit, parseOverrideRateLimit, requireText } from "../values";
import type { WorkspaceRow } from "../../db/workspaces";
import {
  createNamespace,
  deleteNamespace,
  deleteOverride,
  findNamespace,
  findOverride,
  listNamespaces,
  listOverrides,
  setOverride,
  type NamespaceRow,
} from "../../db/ratelimits";

/** `namespaces create`, `list` and `delete`; `overrides set`, `list` and `delete`: rate limiting's setup. */

/** The workspace's live namespace named by `--namespace` (its name or id). */
export function namespaceOf(db: Database, workspace: WorkspaceRow, nameOrId: string | undefined): NamespaceRow {
  const wanted = requireText("--namespace", nameOrId);
  const namespace = findNamespace(db, workspace.id, wanted);
  if (namespace === undefined || namespace.deletedAt !== null)
    throw new CommandError(
      `no namespace ${wanted} in workspace ${workspace.id}; create it with "namespaces create --name N"`,
    );
  return namespace;
}

export const RATELIMIT_COMMANDS: Record<string, Command> = {
  "namespaces create": {
    options: ["name"],
    argumentCount: 0,
    run(db, workspace, values) {
      const name = requireText("--name", values.name);
      if (name.length > 512) throw new CommandError("--name must be at most 512 characters");
      if (findNamespace(db, workspace.id, name) !== undefined)
        throw new CommandError(
          `workspace ${workspace.id} already has a namespace ${name} (deleted ones keep their name)`,
        );
      return createNamespace(db, workspace.id, name).id;
    },
  },
  "namespaces list": {
    options: [],
    argumentCount: 0,
    reads: true,
    run(db, workspace) {
      const rows = listNamespaces(db, workspace.id).map((namespace) => [
        namespace.name,
        namespace.id,
        String(namespace.overrideCount),
        String(namespace.decisionCount),
        namespace.deletedAt === null ? "live" : "deleted",
      ]);
      return table(["NAME", "ID", "OVERRIDES", "DECISIONS", "STATE"], rows);
    },
  },
  "namespaces delete": {
    options: [],
    argumentCount: 1,
    run(db, workspace, _values, [nameOrId = ""]) {
      if (!deleteNamespace(db, workspace.id, nameOrId))
        throw new CommandError(`no namespace ${nameOrId} in workspace ${workspace.id} (or it is deleted)`);
      return nameOrId;
    },
  },
  "overrides set": {
    options: ["namespace", "identifier", "ratelimit"],
    argumentCount: 0,
    run(db, workspace, values) {
      const namespace = namespaceOf(db, workspace, values.namespace);
      const identifier = requireText("--identifier", values.identifier);
      if (identifier.length > 512) throw new CommandError("--identifier must be at most 512 characters");
      const { limit, windowMs } = parseOverrideRateLimit(single("--ratelimit", values.ratelimit ?? []));
      return setOverride(db, {
        workspaceId: workspace.id,
        namespaceId: namespace.id,
        identifier,
        limit,
        durationMs: windowMs,
      });
    },
  },
  "overrides list": {
    options: ["namespace"],
    argumentCount: 0,
    reads: true,
    run(db, workspace, values) {
      const namespace = namespaceOf(db, workspace, values.namespace);
      const rows = listOverrides(db, namespace.id, "", Number.MAX_SAFE_INTEGER).map((override) => [
        override.identifier,
        override.id,
        formatRateLimit({ limit: override.limit, windowMs: override.durationMs }),
      ]);
      return table(["IDENTIFIER", "ID", "RATELIMIT"], rows);
    },
  },
  "overrides delete": {
    options: ["namespace", "identifier"],
    argumentCount: 0,
    run(db, workspace, values) {
      const namespace = namespaceOf(db, workspace, values.namespace);
      const identifier = requireText("--identifier", values.identifier);
      const override = findOverride(db, namespace.id, identifier);
      if (override === undefined)
        throw new CommandError(`namespace ${namespace.name} has no override for exactly "${identifier}"`);
      deleteOverride(db, override.id);
      return override.id;
    },
  },
};
