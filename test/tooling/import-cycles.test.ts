import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCircular, parseDependencyTree } from "dpdm";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../server/cli";

/**
 * No circle in the import graph of src/, server/ and bench/, type-only imports included: a module that needs a type
 * of another's while that one needs it back is one module in two files, or a third module missing (the type). dpdm
 * reads the graph with the TypeScript parser; `transform: false` keeps `import type`, which ESLint's import/no-cycle
 * skips (the circle that key-rollup.ts and engine.ts had ran through one type).
 */

/** Every circle among the modules reached from `entries` (globs), each as the files around it. */
async function importCircles(cwd: string, entries: string[]): Promise<string[][]> {
  const tree = await parseDependencyTree(entries, {
    cwd,
    context: cwd,
    transform: false,
    skipDynamicImports: false,
    // Only the project's own files: packages are leaves.
    exclude: /node_modules/,
    extensions: [".ts", ".tsx", ".js", ".mjs"],
    // Resolves the `@/` alias of src/ where the tree has a tsconfig.json that declares it.
    tsconfig: existsSync(join(cwd, "tsconfig.json")) ? join(cwd, "tsconfig.json") : undefined,
  });
  return parseCircular(tree);
}

describe("the import graph", () => {
  test("src/, server/ and bench/ hold no circle of imports", { timeout: 120_000 }, async () => {
    expect(await importCircles(REPO_ROOT, ["src/**/*.{ts,tsx}", "server/**/*.ts", "bench/**/*.ts"])).toEqual([]);
  });

  test("a circle is found, through a type-only import and a dynamic import alike", async () => {
    const root = mkdtempSync(join(tmpdir(), "keyscope-cycle-"));
    try {
      mkdirSync(join(root, "server"));
      writeFileSync(
        join(root, "server/engine.ts"),
        'import { plan } from "./planner";\nexport type Outcome = { rows: number };\nexport const run = () => plan();\n',
      );
      writeFileSync(
        join(root, "server/planner.ts"),
        'import type { Outcome } from "./engine";\nexport const plan = (): Outcome => ({ rows: 0 });\n',
      );
      writeFileSync(join(root, "server/lazy.ts"), 'export const load = () => import("./loader");\n');
      writeFileSync(join(root, "server/loader.ts"), 'import { load } from "./lazy";\nexport const again = load;\n');
      writeFileSync(join(root, "server/leaf.ts"), 'import { run } from "./engine";\nexport const leaf = run;\n');
      const circles = await importCircles(root, ["server/**/*.ts"]);
      expect(circles.map((circle) => [...circle].sort())).toEqual(
        expect.arrayContaining([
          ["server/engine.ts", "server/planner.ts"],
          ["server/lazy.ts", "server/loader.ts"],
        ]),
      );
      expect(circles).toHaveLength(2);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
