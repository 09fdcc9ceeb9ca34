import { hash } from "node:crypto";

/**
 * How keys imported by keys.migrateKeys were hashed by the system they come from, as the real service's migrations
 * say it (its key_migrations.algorithm), and what a verification naming the migration looks them up by.
 */

export const MIGRATION_ALGORITHMS = ["sha256", "github.com/seamapi/prefixed-api-key"] as const;
export type MigrationAlgorithm = (typeof MIGRATION_ALGORITHMS)[number];

export function isMigrationAlgorithm(value: string): value is MigrationAlgorithm {
  return (MIGRATION_ALGORITHMS as readonly string[]).includes(value);
}

const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * The hash stored for an imported key. A `sha256` migration's hashes are the real service's native form, the SHA-256
 * of the whole key in standard base64: stored in this server's native form (hex), so the key verifies by the ordinary
 * lookup, as it does there. Anything else is stored as given, as there.
 */
export function storedImportHash(algorithm: MigrationAlgorithm, imported: string): string {
  if (algorithm === "sha256" && BASE64_SHA256.test(imported)) return Buffer.from(imported, "base64").toString("hex");
  return imported;
}

/** What a verification naming a migration looks an imported key up by, and the `start` it is shown with once re-hashed. */
export type MigratedLookup =
  | { kind: "lookup"; hash: string; start: string }
  /** A `sha256` key not found by the ordinary lookup does not exist (the real service's words, in effect). */
  | { kind: "not_found" }
  /** A key that is not `prefix_shortToken_longToken`: the real service's 400 "Invalid key format". */
  | { kind: "malformed" };

export function migratedLookup(algorithm: MigrationAlgorithm, secret: string): MigratedLookup {
  if (algorithm === "sha256") return { kind: "not_found" };
  // Read from the right: the short and long tokens hold no "_", the prefix may.
  const parts = secret.split("_");
  if (parts.length < 3) return { kind: "malformed" };
  const longToken = parts.at(-1) ?? "";
  const shortToken = parts.at(-2) ?? "";
  const prefix = parts.slice(0, -2).join("_");
  return {
    kind: "lookup",
    hash: hash("sha256", longToken, "hex"),
    start: `${prefix}_${`${shortToken}_${longToken}`.slice(0, 4)}`,
  };
}
