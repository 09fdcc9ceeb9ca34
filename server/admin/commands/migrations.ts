import { table, type Command } from "../command";
import { requireText, UsageError } from "../values";
import { createKeyMigration, listKeyMigrations } from "../../db/key-migrations";
import { isMigrationAlgorithm, MIGRATION_ALGORITHMS } from "../../keys/migrated-secrets";

/**
 * `migrations create` and `list`: the key migrations keys.migrateKeys imports keys under (the real service's staff
 * make them on request; here the admin does).
 */

export const MIGRATION_COMMANDS: Record<string, Command> = {
  "migrations create": {
    options: ["algorithm"],
    argumentCount: 0,
    run(db, workspace, values) {
      const algorithm = requireText("--algorithm", values.algorithm);
      if (!isMigrationAlgorithm(algorithm)) {
        throw new UsageError(`--algorithm must be ${MIGRATION_ALGORITHMS.join(" or ")}, got "${algorithm}"`);
      }
      return createKeyMigration(db, workspace.id, algorithm);
    },
  },
  "migrations list": {
    options: [],
    argumentCount: 0,
    reads: true,
    run(db, workspace) {
      const rows = listKeyMigrations(db, workspace.id).map((migration) => [
        migration.id,
        migration.algorithm,
        String(migration.keyCount),
      ]);
      return table(["ID", "ALGORITHM", "KEYS WAITING"], rows);
    },
  },
};
