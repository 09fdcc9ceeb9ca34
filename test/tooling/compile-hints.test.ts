import { expect, test } from "vitest";
import { COMPILE_HINT, compileHints, firstScreenChunks } from "../../tooling/compile-hints";
import type { ChunkLinks } from "../../tooling/chunk-graph";

function chunk(fileName: string, imports: string[], dynamicImports: string[] = []): ChunkLinks {
  return { type: "chunk", fileName, imports, dynamicImports };
}

test("the first screen's chunks are the entry and what it starts, with all they import statically; code loaded later is not", () => {
  const entry = chunk("index.js", ["contract.js"], ["keys-route.js", "main.js"]);
  const chunks = [
    entry,
    chunk("contract.js", []),
    chunk("keys-route.js", ["main.js", "contract.js", "table.js"], ["virtualizer.js"]),
    chunk("main.js", ["runtime.js", "contract.js"], ["connect-route.js", "keys-route.js"]),
    chunk("table.js", ["runtime.js"]),
    chunk("runtime.js", []),
    chunk("virtualizer.js", ["runtime.js"]),
    chunk("connect-route.js", ["main.js"]),
  ];
  expect(firstScreenChunks(chunks, entry).sort()).toEqual([
    "contract.js",
    "index.js",
    "keys-route.js",
    "main.js",
    "runtime.js",
    "table.js",
  ]);
});

test("the hint is the first line of the first screen's chunks, whose source maps move one line down; later chunks are left as they were", () => {
  const output = (fileName: string, isEntry: boolean, dynamicImports: string[]) => ({
    ...chunk(fileName, [], dynamicImports),
    isEntry,
    code: `const ${fileName.replace(".js", "")} = 1;\n`,
  });
  const map = (mappings: string) => ({
    type: "asset" as const,
    source: JSON.stringify({ version: 3, sources: ["src/a.ts"], names: [], mappings }),
  });
  const bundle: Record<string, unknown> = {
    "index.js": output("index.js", true, ["main.js"]),
    "index.js.map": map("AAAA"),
    "main.js": output("main.js", false, ["later.js"]),
    "main.js.map": map("AAAA;AACA"),
    "later.js": output("later.js", false, []),
    "later.js.map": map("AAAA"),
  };
  const { generateBundle } = compileHints();
  if (typeof generateBundle !== "object" || generateBundle === null)
    throw new Error("generateBundle is not an ordered hook");
  // The hook reads only the bundle; the plugin context and output options are not used.
  Reflect.apply(generateBundle.handler, {}, [{}, bundle, false]);

  const codeOf = (fileName: string) => (bundle[fileName] as { code: string }).code;
  const mappingsOf = (fileName: string) =>
    (JSON.parse((bundle[`${fileName}.map`] as { source: string }).source) as { mappings: string }).mappings;
  expect(codeOf("index.js")).toBe(`${COMPILE_HINT}\nconst index = 1;\n`);
  expect(codeOf("main.js")).toBe(`${COMPILE_HINT}\nconst main = 1;\n`);
  expect(mappingsOf("index.js")).toBe(";AAAA");
  expect(mappingsOf("main.js")).toBe(";AAAA;AACA");
  expect(codeOf("later.js")).toBe("const later = 1;\n");
  expect(mappingsOf("later.js")).toBe("AAAA");
});

test("the hint goes into the hinted chunks' content hash, so a chunk that gains or loses it gets a new name", () => {
  const rendered = (fileName: string, isEntry: boolean, imports: string[], dynamicImports: string[] = []) => ({
    ...chunk(fileName, imports, dynamicImports),
    isEntry,
  });
  const chunks = {
    "index.js": rendered("index.js", true, [], ["main.js"]),
    "main.js": rendered("main.js", false, ["runtime.js"], ["later.js"]),
    "runtime.js": rendered("runtime.js", false, []),
    "later.js": rendered("later.js", false, ["runtime.js"]),
  };
  const { renderChunk, augmentChunkHash } = compileHints();
  if (typeof renderChunk !== "function" || typeof augmentChunkHash !== "function")
    throw new Error("the plugin has no renderChunk or augmentChunkHash");
  // The hooks read the chunks rendered so far (meta.chunks) and the chunk's name; the plugin context is not used.
  Reflect.apply(renderChunk, {}, ["", chunks["later.js"], {}, { chunks }]);
  const hashInput = (fileName: keyof typeof chunks) =>
    Reflect.apply(augmentChunkHash, {}, [chunks[fileName]]) as unknown;
  expect(hashInput("index.js")).toBe(COMPILE_HINT);
  expect(hashInput("main.js")).toBe(COMPILE_HINT);
  expect(hashInput("runtime.js")).toBe(COMPILE_HINT);
  expect(hashInput("later.js")).toBeUndefined();
});
