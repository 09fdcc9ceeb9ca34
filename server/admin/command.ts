import type { parseArgs } from "node:util";
import type { Database } from "better-sqlite3";
import { findApi } from "../db/apis";
import { findLiveKey, type ChangedKey } from "../db/keys";
import type { WorkspaceRow } from "../db/workspaces";
import { ApiRefusal } from "../http/api-refusal";
import { UsageError } from "./values";

/** What every admin command is, and what several share: the flags, the output table, the workspace's API and key. */

/** The flags parseArgs accepts; the usage and docs/admin-cli.md describe each (test/tooling/docs-match-source.test.ts). */
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
  namespace: { type: "string" },
  identifier: { type: "string" },
  slug: { type: "string" },
  algorithm: { type: "string" },
  help: { type: "boolean" },
} as const;

export type Values = ReturnType<typeof parseArgs<{ options: typeof ADMIN_OPTIONS; allowPositionals: true }>>["values"];
export type OptionName = keyof typeof ADMIN_OPTIONS;

export class CommandError extends Error {}

/** Where a run writes: the process's streams for `npm run admin`, buffers for a test or a fixture in-process. */
export interface AdminIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Progress bars go to stderr only when it is a terminal. */
  stderrIsTTY: boolean;
}

export interface Command {
  options: readonly OptionName[];
  /** How many positional arguments follow the command's two words. */
  argumentCount: number;
  /** Only reads: on a data directory without a database it fails instead of creating one with a demo workspace. */
  reads?: boolean;
  run(db: Database, workspace: WorkspaceRow, values: Values, args: readonly string[], io: AdminIo): string;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
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

/** The one value of a repeatable option that this command takes once. */
export function single(flag: string, values: readonly string[]): string {
  if (values.length !== 1) throw new UsageError(`${flag} is given ${values.length} times; this command takes it once`);
  return values[0] ?? "";
}

export function apiOf(db: Database, workspace: WorkspaceRow, apiId: string | undefined): string {
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
export function changeKey<T>(db: Database, workspace: WorkspaceRow, keyId: string, change: (key: ChangedKey) => T): T {
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
    if (error instanceof ApiRefusal) throw new CommandError(error.detail);
    throw error;
  }
}

export const CLEAR = "none";

export function progressBar(io: AdminIo): (done: number, total: number) => void {
  return (done, total) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    const percent = String(Math.floor((done / total) * 100)).padStart(3);
    io.stderr(
      `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${percent}% ${done.toLocaleString("en")}/${total.toLocaleString("en")}`,
    );
  };
}
