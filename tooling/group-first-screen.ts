import { basename, extname } from "node:path";
import type { Plugin, Rolldown } from "vite";
import { reachable } from "./reachable.ts";

/** What this reads of a module of the build (rolldown's ModuleInfo). */
export interface ModuleLinks {
  isEntry: boolean;
  importers: readonly string[];
  dynamicImporters: readonly string[];
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
}

type ModuleInfoOf = (id: string) => ModuleLinks | null;

/** The modules `roots` import statically, themselves included. */
function staticClosure(roots: Iterable<string>, infoOf: ModuleInfoOf): Set<string> {
  return reachable(roots, (id) => infoOf(id)?.importedIds ?? []);
}

/** The build's entries (index.html's modules), found from any module by walking up to them. */
function entriesAbove(id: string, infoOf: ModuleInfoOf): string[] {
  const seen = new Set<string>();
  const entries: string[] = [];
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    const info = infoOf(current);
    if (info === null) return;
    if (info.isEntry) entries.push(current);
    for (const importer of [...info.importers, ...info.dynamicImporters]) visit(importer);
  };
  visit(id);
  return entries;
}

/**
 * The modules of `page` that code outside it imports statically: code the app reaches from `roots` by any import,
 * static or dynamic, without entering `page`. A dynamic import into `page` (the router prefetching the keys list) is
 * no such need: it loads the page's chunk only on the way to the page.
 */
function importedFromOutside(roots: Iterable<string>, page: ReadonlySet<string>, infoOf: ModuleInfoOf): Set<string> {
  const outside = new Set<string>();
  const needed = new Set<string>();
  const visit = (id: string) => {
    if (outside.has(id) || page.has(id)) return;
    outside.add(id);
    const info = infoOf(id);
    for (const imported of info?.importedIds ?? []) {
      if (page.has(imported)) needed.add(imported);
      else visit(imported);
    }
    for (const imported of info?.dynamicallyImportedIds ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  return needed;
}

/**
 * The first screen's chunks, by module: what the page's entry starts at once (its dynamic imports) with all they
 * import statically. The app (the one of them nothing else imports: src/main.tsx) is one chunk, named after it;
 * each page the entry starts beside it (the keys page, in a tab holding a key) is one chunk of what the app does
 * not already hold — less what the app's other pages also import (key entry, Troubleshoot, a key's page): those go
 * to the app's chunk, so another page never loads the keys page's chunk for a few of its modules. Nothing else: what
 * loads later keeps rolldown's own chunks.
 */
export function firstScreenGroups(anyModule: string, infoOf: ModuleInfoOf): Map<string, string> {
  const entries = entriesAbove(anyModule, infoOf);
  const entryModules = staticClosure(entries, infoOf);
  const started = [...new Set([...entryModules].flatMap((id) => infoOf(id)?.dynamicallyImportedIds ?? []))];
  const startedOnlyByEntry = (id: string) =>
    (infoOf(id)?.dynamicImporters ?? []).every((importer) => entryModules.has(importer));
  const appRoots = started.filter(startedOnlyByEntry);
  const pageRoots = started.filter((id) => !startedOnlyByEntry(id));
  const appName = appRoots[0] === undefined ? undefined : basename(appRoots[0], extname(appRoots[0]));
  const groups = new Map<string, string>();
  const assign = (ids: Iterable<string>, name: string) => {
    for (const id of ids) if (!entryModules.has(id) && !groups.has(id)) groups.set(id, name);
  };
  for (const root of appRoots) assign(staticClosure([root], infoOf), basename(root, extname(root)));
  for (const root of pageRoots) {
    const page = staticClosure([root], infoOf);
    if (appName !== undefined) assign(staticClosure(importedFromOutside(appRoots, page, infoOf), infoOf), appName);
    assign(page, basename(root, extname(root)));
  }
  return groups;
}

/**
 * Groups the first screen's modules into one chunk for the app and one for the keys page (with their stylesheets),
 * instead of the twenty files rolldown's automatic splitting makes of them, each a request before the first row.
 */
export function groupFirstScreen(): Plugin {
  let groups: Map<string, string> | undefined;
  const groupOf = (id: string, infoOf: ModuleInfoOf) => {
    groups ??= firstScreenGroups(id, infoOf);
    return groups.get(id) ?? null;
  };
  return {
    name: "keyscope:group-first-screen",
    apply: "build",
    buildStart() {
      groups = undefined;
    },
    config() {
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                // Each group holds exactly the modules named for it: the entry's own stay in the entry's chunk
                // (pulled into a group, they would make the entry wait for it), the app's in the app's.
                includeDependenciesRecursively: false,
                groups: [
                  {
                    debugName: "first screen",
                    name: (id: string, ctx: Rolldown.ChunkingContext) =>
                      groupOf(id, (moduleId) => ctx.getModuleInfo(moduleId)),
                  },
                ],
              },
            },
          },
        },
      };
    },
  };
}
