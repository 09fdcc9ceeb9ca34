import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { decode } from "@jridgewell/sourcemap-codec";
import { REPO_ROOT } from "./paths";

/** Bytes (gzip) by where they come from: an npm package, or a source file of the repository. */
export type ModuleShares = Map<string, number>;

/** A module id as a reader would look for it: its npm package, or its path in the repository. */
function moduleGroup(path: string): string {
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
  return packageName ?? path;
}

/**
 * Each module's share of the given built files' gzip bytes: the minified bytes its source map gives it in each
 * file, times that file's gzip ratio. Bytes the map gives no source (the bundler's glue) count as "(bundler)".
 * A share, not an exact size: gzip compresses a file as a whole.
 */
export function gzipSharesByModule(distDir: string, files: Iterable<string>): ModuleShares {
  const shares: ModuleShares = new Map();
  const add = (group: string, bytes: number) => shares.set(group, (shares.get(group) ?? 0) + bytes);
  for (const file of files) {
    const path = join(distDir, file.replace(/^\//, ""));
    const code = readFileSync(path, "utf8");
    if (code.length === 0) continue;
    const ratio = gzipSync(code, { level: 9 }).length / code.length;
    // The bundler's own runtime chunk comes without a map.
    if (!existsSync(`${path}.map`)) {
      add("(bundler)", code.length * ratio);
      continue;
    }
    const map = JSON.parse(readFileSync(`${path}.map`, "utf8")) as { sources: string[]; mappings: string };
    const sources = map.sources.map((source) => moduleGroup(relative(REPO_ROOT, resolve(dirname(path), source))));
    const lines = code.split("\n");
    let mapped = 0;
    decode(map.mappings).forEach((segments, lineIndex) => {
      const lineLength = lines[lineIndex]?.length ?? 0;
      segments.forEach((segment, index) => {
        const end = segments[index + 1]?.[0] ?? lineLength;
        const source = segment.length > 1 ? sources[segment[1] ?? -1] : undefined;
        const bytes = end - segment[0];
        mapped += bytes;
        add(source ?? "(bundler)", bytes * ratio);
      });
    });
    // Line breaks and bytes before a line's first mapping.
    add("(bundler)", (code.length - mapped) * ratio);
  }
  return shares;
}

/** What `ours` holds beyond `floor`, by module, largest first (modules both hold count only their difference). */
export function beyondFloor(ours: ModuleShares, floor: ModuleShares): [string, number][] {
  return [...ours]
    .map(([group, bytes]): [string, number] => [group, bytes - (floor.get(group) ?? 0)])
    .filter(([, bytes]) => bytes >= 50)
    .sort((a, b) => b[1] - a[1]);
}

/** "@tanstack/virtual-core 9.7 KiB, src/features/keys/components/keys-table.tsx 1.4 KiB, …" */
export function describeShares(shares: readonly [string, number][], limit = 40): string {
  const shown = shares.slice(0, limit).map(([group, bytes]) => `${group} ${(bytes / 1024).toFixed(1)} KiB`);
  const rest = shares.slice(limit).reduce((sum, [, bytes]) => sum + bytes, 0);
  return rest > 0
    ? [...shown, `${shares.length - limit} more ${(rest / 1024).toFixed(1)} KiB`].join(", ")
    : shown.join(", ");
}
