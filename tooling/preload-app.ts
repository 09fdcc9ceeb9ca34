import type { HtmlTagDescriptor, Plugin } from "vite";
import { staticClosure, type ChunkLinks } from "./chunk-graph.ts";

type Bundle = Readonly<Record<string, ChunkLinks | { type: "asset" }>>;

/**
 * The app's files: the chunk the page's entry starts on every page (of its dynamic imports, the one no other chunk
 * starts: src/main.tsx) with everything it imports statically, less what Vite already preloads (the entry's own
 * static imports); then their stylesheets. Not a page the entry also starts (the keys page, in a tab holding a key):
 * the entry starts that itself only where it is wanted, and the router elsewhere.
 */
export function appFiles(bundle: Bundle, entry: ChunkLinks): { scripts: string[]; styles: string[] } {
  const chunks = Object.values(bundle).flatMap((output) => (output.type === "chunk" ? [output] : []));
  const chunkOf = (fileName: string) => chunks.find((chunk) => chunk.fileName === fileName);
  const preloadedByVite = staticClosure(chunks, [entry.fileName]);
  const startedElsewhere = new Set(chunks.flatMap((chunk) => (chunk === entry ? [] : chunk.dynamicImports)));
  const scripts = staticClosure(
    chunks,
    entry.dynamicImports.filter((started) => !startedElsewhere.has(started)),
    preloadedByVite,
  );
  const styles = new Set([...scripts].flatMap((fileName) => [...(chunkOf(fileName)?.viteMetadata?.importedCss ?? [])]));
  return { scripts: [...scripts], styles: [...styles] };
}

/**
 * Has index.html fetch the app's code while it is parsed, instead of once its small entry has been fetched and run:
 * `modulepreload` for the scripts, `preload` for the stylesheets (the app applies them itself when it imports them,
 * with `crossorigin` as Vite's loader links them: a preload whose mode differs is not used, and the file comes twice).
 * From the build's chunk graph, so it follows the code.
 */
export function preloadApp(): Plugin {
  let base = "/";
  return {
    name: "keyscope:preload-app",
    apply: "build",
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: "post",
      handler(_html, { bundle, chunk }): HtmlTagDescriptor[] {
        if (bundle === undefined || chunk === undefined) return [];
        const { scripts, styles } = appFiles(bundle, chunk);
        return [
          ...scripts.map((file) => ({
            tag: "link",
            attrs: { rel: "modulepreload", crossorigin: true, href: base + file },
            injectTo: "head" as const,
          })),
          ...styles.map((file) => ({
            tag: "link",
            attrs: { rel: "preload", as: "style", crossorigin: true, href: base + file },
            injectTo: "head" as const,
          })),
        ];
      },
    },
  };
}
