/**
 * React's own view of a cold load of the keys page: `npx tsx bench/react-commits.ts [--runs N]` builds the
 * dashboard unminified (component names kept) into bench/.work/, serves it with 10,000 keys as trace-first-row
 * does, and prints each of React's commits until a moment after the usable key row: when it came and which
 * components ran in it, how many of each (`+` for a mount). A page that renders twice before its first row, or
 * rows drawn again for nothing, shows here by name. A tool for reading, like trace-first-row; not a figure.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build } from "vite";
import { newContext, usableRowMessage, withSeededBrowser } from "./browser";
import { REPO_ROOT, WORK_DIR } from "./lib/paths";
import { round } from "./lib/stats";

const DIST = join(WORK_DIR, "react-commits-dist");
/** The console message each commit is told in. */
const COMMIT = "__benchReactCommit";

/**
 * Runs in the page before its scripts: React's devtools hook, which React calls after every commit with the root.
 * A component ran in a commit when its fiber was worked on (not the same object as last commit's, which a
 * bailed-out subtree keeps) and carries React's PerformedWork flag.
 */
function hookCommits(message: string): void {
  interface Fiber {
    tag: number;
    type: unknown;
    flags: number;
    child: Fiber | null;
    sibling: Fiber | null;
    alternate: Fiber | null;
  }
  const PERFORMED_WORK = 1;
  let commit = 0;
  const seenIn = new WeakMap<Fiber, number>();
  const nameOf = (type: unknown, tag: number): string => {
    if (typeof type === "function") return type.name || `tag${tag}`;
    if (typeof type === "object" && type !== null) {
      const wrapped = type as { displayName?: string; render?: { name?: string }; type?: { name?: string } };
      return wrapped.displayName ?? wrapped.render?.name ?? wrapped.type?.name ?? `tag${tag}`;
    }
    return `tag${tag}`;
  };
  Object.assign(globalThis, {
    __REACT_DEVTOOLS_GLOBAL_HOOK__: {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => undefined,
      onScheduleFiberRoot: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      onCommitFiberUnmount: () => undefined,
      onCommitFiberRoot(_renderer: number, root: { current: Fiber }) {
        commit += 1;
        const at = performance.now();
        const ran = new Map<string, number>();
        const visit = (first: Fiber | null) => {
          for (let fiber = first; fiber !== null; fiber = fiber.sibling) {
            const reused = seenIn.get(fiber) === commit - 1;
            seenIn.set(fiber, commit);
            if (!reused && (fiber.flags & PERFORMED_WORK) !== 0 && typeof fiber.type !== "string") {
              const name = `${nameOf(fiber.type, fiber.tag)}${fiber.alternate === null ? "+" : ""}`;
              ran.set(name, (ran.get(name) ?? 0) + 1);
            }
            visit(fiber.child);
          }
        };
        visit(root.current);
        const list = [...ran].map(([name, count]) => (count > 1 ? `${name}×${count}` : name)).join(", ");
        console.debug(`${message} ${JSON.stringify({ commit, at, list })}`);
      },
    },
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "1" } } });
  await build({
    root: REPO_ROOT,
    logLevel: "warn",
    clearScreen: false,
    build: { outDir: DIST, emptyOutDir: true, minify: false, sourcemap: false },
  });
  await withSeededBrowser(DIST, "react-commits", async ({ url, rootKey, keyIds, browser }) => {
    for (let run = 1; run <= Number(values.runs); run += 1) {
      const context = await newContext(browser, url, rootKey, keyIds);
      try {
        await context.addInitScript(hookCommits, COMMIT);
        const page = await context.newPage();
        const lines: { at: number; text: string }[] = [];
        page.on("console", (message) => {
          const text = message.text();
          if (!text.startsWith(`${COMMIT} `)) return;
          const { commit, at, list } = JSON.parse(text.slice(COMMIT.length + 1)) as {
            commit: number;
            at: number;
            list: string;
          };
          lines.push({ at, text: `commit ${commit}: ${list}` });
        });
        const row = usableRowMessage(page);
        await page.goto(`${url}/keys`);
        const usable = await row;
        lines.push({ at: usable.time, text: "USABLE KEY ROW in a frame" });
        // The commits that follow soon after (the late code's, the usage bars'), for what the row is followed by.
        await page.waitForTimeout(1000);
        console.log(`run ${run}:`);
        for (const line of lines.sort((a, b) => a.at - b.at))
          console.log(`${round(line.at, 0).toString().padStart(6)} ms  ${line.text}`);
      } finally {
        await context.close();
      }
    }
  });
}

await main();
