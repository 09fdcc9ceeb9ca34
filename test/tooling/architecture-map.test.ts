import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { posix } from "node:path";
import { describe, expect, test } from "vitest";

// docs/architecture.md's table of folders is the map of the code. These tests hold it to the repository: every folder
// of the code is named there, and everything named there exists.

const ROOT = posix.resolve(import.meta.dirname, "../..");
const MAP = "docs/architecture.md";
/** The folders whose every folder the map names. */
const MAPPED_ROOTS = ["src", "server", "test", "bench", "tooling"];

/** A row of the map: the path its first cell names, and what its second says the path holds. */
export interface MapRow {
  path: string;
  holds: string;
}

/** The rows of the map's "## The folders" table. */
export function mapRows(markdown: string): MapRow[] {
  const start = markdown.indexOf("\n## The folders\n");
  if (start === -1) throw new Error(`${MAP} has no "## The folders" section`);
  const end = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)].map(([, path = "", holds = ""]) => ({
    path: path.replace(/\/$/, ""),
    holds,
  }));
}

/** The folders a row's text names inside its own folder: `name/` or `name/deeper/`. */
function foldersNamedIn(holds: string): string[] {
  return [...holds.matchAll(/`([a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*)\/`/g)].map(([, name = ""]) => name);
}

/** The folder a row says its own folder mirrors (`mirrors \`src/\``), if any. */
function mirrorOf(holds: string): string | undefined {
  return /mirrors `([^`]+)\/`/.exec(holds)?.[1];
}

/** Every folder under `roots` holding a file git keeps or would keep (ignored scratch space left out), the roots included. */
export function codeFolders(files: readonly string[], roots: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    if (!roots.some((root) => file.startsWith(`${root}/`))) continue;
    for (let folder = posix.dirname(file); folder !== "."; folder = posix.dirname(folder)) folders.add(folder);
  }
  return [...folders].sort();
}

/**
 * The folders the map leaves unnamed: a folder is named by a row of its own path, by being above a row's path (a
 * folder of folders), or inside the nearest row above it, as `relative/path/` in that row's text, or as the mirror of
 * an existing folder when the row says it mirrors one.
 */
export function unnamedFolders(
  folders: readonly string[],
  rows: readonly MapRow[],
  isFolder: (path: string) => boolean,
) {
  return folders.filter((folder) => {
    if (rows.some((row) => row.path === folder || row.path.startsWith(`${folder}/`))) return false;
    const row = rows
      .filter((candidate) => folder.startsWith(`${candidate.path}/`))
      .sort((a, b) => b.path.length - a.path.length)[0];
    if (row === undefined) return true;
    const relative = folder.slice(row.path.length + 1);
    if (foldersNamedIn(row.holds).includes(relative)) return false;
    const mirrored = mirrorOf(row.holds);
    return mirrored === undefined || !isFolder(`${mirrored}/${relative}`);
  });
}

/** What the map names that is not there: a row's path, or a folder its text names inside it. */
export function namedButMissing(rows: readonly MapRow[], exists: (path: string) => boolean): string[] {
  return rows.flatMap((row) => [
    ...(exists(row.path) ? [] : [row.path]),
    ...foldersNamedIn(row.holds)
      .filter((name) => name !== mirrorOf(row.holds))
      .map((name) => `${row.path}/${name}`)
      .filter((path) => !exists(path)),
  ]);
}

const repositoryFiles = (): string[] =>
  execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", ...MAPPED_ROOTS], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file !== "" && existsSync(posix.join(ROOT, file)));
const exists = (path: string) => existsSync(posix.join(ROOT, path));
const isFolder = (path: string) => exists(path) && statSync(posix.join(ROOT, path)).isDirectory();

describe("the map of the code (docs/architecture.md)", () => {
  const rows = mapRows(readFileSync(posix.join(ROOT, MAP), "utf8"));

  test("names every folder of src/, server/, test/, bench/ and tooling/", () => {
    expect(unnamedFolders(codeFolders(repositoryFiles(), MAPPED_ROOTS), rows, isFolder)).toEqual([]);
  });

  test("names nothing that is not there", () => {
    expect(namedButMissing(rows, exists)).toEqual([]);
  });

  test("a folder added without a row, or a row left after its folder went, fails", () => {
    const map = [
      { path: "src/lib", holds: "shared code: the client in `api/`" },
      { path: "test/src", holds: "it mirrors `src/`, and `support/` holds helpers" },
      { path: "src/features/gone", holds: "a feature removed since" },
    ];
    const folders = ["src", "src/lib", "src/lib/api", "src/lib/hooks", "src/features", "src/features/logs"];
    const testFolders = ["test/src/lib/api", "test/src/support", "test/src/features/gone"];
    const onDisk = new Set([...folders, ...testFolders, "test/src"]);
    expect(unnamedFolders([...folders, ...testFolders], map, (path) => onDisk.has(path))).toEqual([
      "src/lib/hooks",
      "src/features/logs",
      "test/src/features/gone",
    ]);
    expect(namedButMissing(map, (path) => onDisk.has(path))).toEqual(["src/features/gone"]);
  });
});
