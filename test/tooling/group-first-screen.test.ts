import { expect, test } from "vitest";
import { firstScreenGroups, type ModuleLinks } from "../../tooling/group-first-screen";

/** A module graph from each module's static and dynamic imports; importers are derived. */
function graph(imports: Record<string, { static?: string[]; dynamic?: string[]; entry?: boolean }>) {
  const importersOf = (id: string, kind: "static" | "dynamic") =>
    Object.entries(imports).flatMap(([importer, links]) => ((links[kind] ?? []).includes(id) ? [importer] : []));
  const info = new Map<string, ModuleLinks>(
    Object.entries(imports).map(([id, links]) => [
      id,
      {
        isEntry: links.entry === true,
        importers: importersOf(id, "static"),
        dynamicImporters: importersOf(id, "dynamic"),
        importedIds: links.static ?? [],
        dynamicallyImportedIds: links.dynamic ?? [],
      },
    ]),
  );
  return (id: string) => info.get(id) ?? null;
}

test("the app's static imports are its chunk; the keys page's, less the app's, are the page's; later code and the entry's own are left alone", () => {
  const infoOf = graph({
    "/index.html": { entry: true, static: ["/src/first-request/main.ts"] },
    "/src/first-request/main.ts": {
      static: ["/src/lib/contract.ts"],
      dynamic: ["/src/app/routes/keys-route.tsx", "/src/main.tsx"],
    },
    "/src/lib/contract.ts": {},
    "/src/main.tsx": {
      static: ["/react.js", "/src/lib/contract.ts"],
      dynamic: ["/src/app/routes/keys-route.tsx", "/src/app/routes/connect-route.tsx"],
    },
    "/src/app/routes/keys-route.tsx": {
      static: ["/react.js", "/table.js", "/src/lib/contract.ts"],
      dynamic: ["/dialog.tsx"],
    },
    "/src/app/routes/connect-route.tsx": { static: ["/react.js", "/form.tsx"] },
    "/react.js": {},
    "/table.js": {},
    "/dialog.tsx": { static: ["/table.js", "/dialog-only.js"] },
    "/form.tsx": {},
    "/dialog-only.js": {},
  });
  expect(Object.fromEntries(firstScreenGroups("/table.js", infoOf))).toEqual({
    "/src/main.tsx": "main",
    "/react.js": "main",
    "/src/app/routes/keys-route.tsx": "keys-route",
    "/table.js": "keys-route",
  });
});

test("what another page of the app also imports goes to the app's chunk, with what it imports: that page never loads the keys page's chunk; a dynamic import into the page (a prefetch) leaves it there", () => {
  const infoOf = graph({
    "/index.html": { entry: true, static: ["/src/first-request/main.ts"] },
    "/src/first-request/main.ts": { dynamic: ["/src/app/routes/keys-route.tsx", "/src/main.tsx"] },
    "/src/main.tsx": {
      static: ["/react.js", "/router.tsx"],
      dynamic: ["/src/app/routes/keys-route.tsx", "/src/app/routes/troubleshoot-route.tsx"],
    },
    "/router.tsx": { dynamic: ["/list-keys.js"] },
    "/list-keys.js": { static: ["/schema.js"] },
    "/src/app/routes/keys-route.tsx": {
      static: ["/table.js", "/errors.js", "/list-keys.js"],
      dynamic: ["/dialog.tsx"],
    },
    "/src/app/routes/troubleshoot-route.tsx": { dynamic: ["/catalog.tsx"] },
    "/catalog.tsx": { static: ["/errors.js"] },
    "/errors.js": { static: ["/schema.js"] },
    "/schema.js": {},
    "/react.js": {},
    "/table.js": {},
    "/dialog.tsx": { static: ["/table.js"] },
  });
  expect(Object.fromEntries(firstScreenGroups("/table.js", infoOf))).toEqual({
    "/src/main.tsx": "main",
    "/react.js": "main",
    "/router.tsx": "main",
    "/errors.js": "main",
    "/schema.js": "main",
    "/src/app/routes/keys-route.tsx": "keys-route",
    "/table.js": "keys-route",
    "/list-keys.js": "keys-route",
  });
});
