import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Plugin, Rolldown } from "vite";

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/**
 * Builds src/first-request/main.ts as an entry of its own and makes it index.html's only script, in place of the
 * app's (no inline script: the CSP allows none), with preloads of what draws the keys page (src/app/first-paint.ts
 * and its imports). It is given the app's files, which it starts, and those of the keys page's code (the lazy
 * route's chunk, the chunks it imports and their stylesheets), which it fetches once the drawn page is in a frame.
 *
 * Vite has no option for an extra entry in index.html that stays a separate file (its scripts there are bundled
 * into one), hence this small plugin. The list goes into the early file's code, so its name is hashed again
 * afterwards: a changed list is a new file name, as for every other file under assets/.
 */
const EARLY_ENTRY = fileURLToPath(new URL("../src/first-request/main.ts", import.meta.url));
const KEYS_ROUTE = fileURLToPath(new URL("../src/app/routes/keys-route.tsx", import.meta.url));
/** The keys page drawn before React's first render (src/app/first-paint.ts): loaded by the same tabs, as early. */
const FIRST_PAINT = fileURLToPath(new URL("../src/app/first-paint.ts", import.meta.url));
/** The app's entry: index.html, whose script (src/main.tsx) this plugin takes out in favour of the early module. */
const APP_HTML = fileURLToPath(new URL("../index.html", import.meta.url));
const PLACEHOLDER = "__KEYSCOPE_KEYS_ROUTE_FILES__";
const PAINT_PLACEHOLDER = "__KEYSCOPE_FIRST_PAINT__";
const APP_PLACEHOLDER = "__KEYSCOPE_APP__";

/** Where the build lists the JavaScript of its first screen (read by bench/bundle.ts). */
export const FIRST_SCREEN_MANIFEST = ".vite/first-screen.json";

export interface FirstScreenFiles {
  /** The early module, index.html's only script. */
  early: string;
  /** What draws the keys page, preloaded by index.html. */
  paint: string[];
  /** The app's entry and its static imports, which the early module loads. */
  app: string[];
  /**
   * The keys page's own scripts beyond those (its lazy route's chunk and what that imports), which the early module
   * fetches once the drawn page is in a frame: with the above, all the JavaScript of the keys page a user can use.
   */
  keysPage: string[];
}

/** The chunk of the modules first-paint.ts imports and the app's entry does not (the keys page's own code). */
const PAINT_GROUP = "keys-page";

/** `start` and every module it imports statically, transitively (module ids). */
function staticModules(moduleInfo: (id: string) => Rolldown.ModuleInfo | null, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(moduleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

function chunks(bundle: OutputBundle): OutputChunk[] {
  return Object.values(bundle).filter((output): output is OutputChunk => output.type === "chunk");
}

/** `start` and every chunk it imports statically, transitively (file names). */
function staticClosure(bundle: OutputBundle, start: OutputChunk): OutputChunk[] {
  const seen = new Map<string, OutputChunk>();
  const visit = (chunk: OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const imported = bundle[name];
      if (imported?.type === "chunk") visit(imported);
    }
  };
  visit(start);
  return [...seen.values()];
}

export function firstRequestPlugin(): Plugin {
  let base = "/";
  // What first-paint.ts imports statically and the app's entry does not: the app must start without them if they
  // fail to load. Known once the module graph is whole (buildEnd).
  const paintModules = new Set<string>();
  return {
    name: "keyscope:first-request",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      base = config.base;
    },
    buildStart() {
      paintModules.clear();
      this.emitFile({ type: "chunk", id: EARLY_ENTRY, name: "first-request" });
      // Loaded by URL from the early entry, so what it exports must stay (an app build drops entries' exports).
      this.emitFile({ type: "chunk", id: FIRST_PAINT, name: "first-paint", preserveSignature: "strict" });
    },
    buildEnd(error) {
      if (error !== undefined) return;
      if (this.getModuleInfo(APP_HTML) === null) this.error(`first-request: the app's entry ${APP_HTML} is not in the build`);
      const appModules = staticModules((id) => this.getModuleInfo(id), APP_HTML);
      for (const id of staticModules((id) => this.getModuleInfo(id), FIRST_PAINT)) {
        if (id !== FIRST_PAINT && !appModules.has(id)) paintModules.add(id);
      }
    },
    // The keys page's own code as one chunk and one stylesheet, not five scripts and two stylesheets: each file
    // fetched before the list's answer costs a cold load more than its bytes (Chrome and this server share two
    // cores). Other lazy chunks that use a module of it (copy-button, bidi, schemas) import the whole chunk, which
    // every tab has fetched anyway. (This hook runs before the graph is built: the group's test reads the set later.)
    outputOptions(options) {
      if (options.codeSplitting === false) return null;
      if (options.manualChunks !== undefined || options.advancedChunks !== undefined) {
        throw new Error("first-request: codeSplitting groups replace manualChunks and advancedChunks; set codeSplitting instead");
      }
      const splitting = typeof options.codeSplitting === "object" ? options.codeSplitting : {};
      const group = { name: PAINT_GROUP, test: (id: string) => paintModules.has(id) };
      return { ...options, codeSplitting: { ...splitting, groups: [...(splitting.groups ?? []), group] } };
    },
    generateBundle(_options, bundle) {
      const all = chunks(bundle);
      const early = all.find((chunk) => chunk.facadeModuleId === EARLY_ENTRY);
      const keysRoute = all.find((chunk) => chunk.facadeModuleId === KEYS_ROUTE);
      const firstPaint = all.find((chunk) => chunk.facadeModuleId === FIRST_PAINT);
      const app = all.find((chunk) => chunk.isEntry && chunk.facadeModuleId === APP_HTML);
      const html = bundle["index.html"];
      if (!early || !keysRoute || !firstPaint || !app || html?.type !== "asset" || typeof html.source !== "string") {
        this.error("first-request: the early entry, the keys route, the first paint, the app's entry or index.html is missing from the build");
      }
      if (early.imports.length > 0 || early.dynamicImports.length > 0) {
        this.error(`first-request: the early entry must import nothing at run time, it imports ${[...early.imports, ...early.dynamicImports].join(", ")}`);
      }

      const appClosure = staticClosure(bundle, app);
      // rolldown may pull a captured module's imports into its group: the app's code must still never need it.
      const sharedWithApp = appClosure.filter((chunk) => chunk.moduleIds.some((id) => paintModules.has(id)));
      if (sharedWithApp.length > 0) {
        this.error(`first-request: the app's entry imports ${sharedWithApp.map((chunk) => chunk.fileName).join(", ")}, the keys page's own code`);
      }
      const loadedAnyway = new Set(appClosure.map((chunk) => chunk.fileName));
      const paintClosure = staticClosure(bundle, firstPaint);
      if (paintClosure.includes(app)) {
        this.error("first-request: the first paint must not import the app's entry chunk (it would wait for the whole app)");
      }
      const paintFiles = {
        script: `${base}${firstPaint.fileName}`,
        // Its imports: index.html fetches them with it (they would otherwise come one level at a time).
        modules: paintClosure.filter((chunk) => chunk !== firstPaint).map((chunk) => `${base}${chunk.fileName}`),
        styles: [...new Set(paintClosure.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]))].map((file) => `${base}${file}`),
      };

      // Fetched once the drawn page is in a frame; what draws it is fetched ahead of them, by index.html.
      const drawnWith = new Set(paintClosure.map((chunk) => chunk.fileName));
      const routeChunks = staticClosure(bundle, keysRoute).filter((chunk) => !loadedAnyway.has(chunk.fileName) && !drawnWith.has(chunk.fileName));
      const files = [
        ...new Set([...routeChunks.map((chunk) => chunk.fileName), ...routeChunks.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])])]),
      ]
        .filter((file) => !paintFiles.styles.includes(`${base}${file}`))
        .map((file) => `${base}${file}`);
      // The app's entry and the modules it imports statically: the early module fetches them once the drawn page is in
      // a frame (or at once when nothing is drawn), not index.html, where they took the connections (six per origin over HTTP/1.1)
      // and the main thread that the list's request and the drawing need.
      const appFiles = { entry: `${base}${app.fileName}`, modules: appClosure.filter((chunk) => chunk !== app).map((chunk) => `${base}${chunk.fileName}`) };

      if (![PLACEHOLDER, PAINT_PLACEHOLDER, APP_PLACEHOLDER].every((placeholder) => early.code.includes(placeholder))) {
        this.error(`first-request: ${PLACEHOLDER}, ${PAINT_PLACEHOLDER} or ${APP_PLACEHOLDER} is not in the early entry's code`);
      }
      const code = early.code
        .replaceAll(PLACEHOLDER, JSON.stringify(files))
        .replaceAll(PAINT_PLACEHOLDER, JSON.stringify({ script: paintFiles.script, styles: paintFiles.styles }))
        .replaceAll(APP_PLACEHOLDER, JSON.stringify(appFiles))
        .replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
      const hash = createHash("sha256").update(code).digest("base64url").slice(0, 8);
      const fileName = `assets/first-request-${hash}.js`;
      delete bundle[early.fileName];
      delete bundle[`${early.fileName}.map`];
      this.emitFile({ type: "asset", fileName, source: code });

      // The early module is the page's only script (async: it runs as soon as it is here, without waiting for the
      // stylesheet), fetched with what draws the keys page: by the time the list answers, that is in. Those modules
      // are the keys page's own but for first-paint itself, so a tab without a key fetches little it will not run.
      const appScript = `<script type="module" crossorigin src="${base}${app.fileName}"></script>`;
      if (!html.source.includes(appScript)) this.error(`first-request: index.html has no ${appScript}`);
      const preloaded: string[] = [];
      const source = html.source.replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g, (_tag, href: string) => {
        preloaded.push(href);
        return "";
      });
      const unexpected = preloaded.filter((href) => !appFiles.modules.includes(href));
      if (unexpected.length > 0) this.error(`first-request: index.html preloads ${unexpected.join(", ")}, which the app's entry does not import`);
      const paintScripts = [paintFiles.script, ...paintFiles.modules];
      const tags = [
        `<script type="module" async crossorigin src="${base}${fileName}"></script>`,
        ...paintScripts.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`),
        ...paintFiles.styles.map((file) => `<link rel="preload" as="style" crossorigin href="${file}">`),
      ];
      html.source = source.replace(appScript, tags.join("\n    "));

      // What the first screen loads, for the bench (bench/bundle.ts): not served as a page, not read by the app.
      const firstScreen: FirstScreenFiles = {
        early: `${base}${fileName}`,
        paint: paintScripts,
        app: [appFiles.entry, ...appFiles.modules],
        keysPage: routeChunks.map((chunk) => `${base}${chunk.fileName}`),
      };
      this.emitFile({ type: "asset", fileName: FIRST_SCREEN_MANIFEST, source: JSON.stringify(firstScreen, null, 2) });
    },
  };
}
