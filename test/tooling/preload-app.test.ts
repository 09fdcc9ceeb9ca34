import { expect, test } from "vitest";
import type { ChunkLinks } from "../../tooling/chunk-graph";
import { appFiles } from "../../tooling/preload-app";

function chunk(fileName: string, imports: string[], dynamicImports: string[] = [], css: string[] = []): ChunkLinks {
  return { type: "chunk", fileName, imports, dynamicImports, viteMetadata: { importedCss: new Set(css) } };
}

test("the app is the chunk only the entry starts, with all it imports less the entry's own imports, then its styles; not a page the router starts too", () => {
  const entry = chunk("index.js", ["contract.js"], ["keys-route.js", "main.js"]);
  const bundle = {
    "index.js": entry,
    "contract.js": chunk("contract.js", []),
    "keys-route.js": chunk("keys-route.js", ["main.js", "contract.js", "table.js"], ["dialog.js"], ["keys-route.css"]),
    "main.js": chunk("main.js", ["react.js", "contract.js"], ["connect-route.js", "keys-route.js"], ["main.css"]),
    "table.js": chunk("table.js", ["react.js"]),
    "react.js": chunk("react.js", [], [], ["react.css"]),
    "dialog.js": chunk("dialog.js", ["react.js"], [], ["dialog.css"]),
    "connect-route.js": chunk("connect-route.js", ["react.js"]),
    "main.css": { type: "asset" as const },
  };
  expect(appFiles(bundle, entry)).toEqual({ scripts: ["main.js", "react.js"], styles: ["main.css", "react.css"] });
});
