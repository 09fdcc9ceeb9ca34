// @ts-check
import js from "@eslint/js";
import path from "node:path";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Which layer of the architecture a repository path belongs to, e.g. "src/features/keys", "src/lib", "server". */
function layerOf(repoPath) {
  const [top, second, third] = repoPath.split("/");
  if (top === "src" && second === "features" && third) return `src/features/${third}`;
  if (top === "src" && (second === "lib" || second === "components" || second === "app")) return `src/${second}`;
  return top === "src" ? "src" : top;
}

/** Why an import from one layer into another breaks the architecture, or undefined when it does not. */
function boundaryViolation(fromLayer, targetPath) {
  const toLayer = layerOf(targetPath);
  if (fromLayer === "server") {
    return toLayer.startsWith("src") && targetPath.replace(/\.ts$/, "") !== "src/lib/contract"
      ? "The server shares only src/lib/contract.ts with the dashboard."
      : undefined;
  }
  if (!fromLayer.startsWith("src")) return undefined;
  if (toLayer === "server") return "The dashboard must not import the server.";
  if (fromLayer === "src/lib" || fromLayer === "src/components") {
    if (toLayer.startsWith("src/features/")) return "Shared code must not import a feature.";
    if (toLayer === "src/app") return "Shared code must not import the app shell.";
  }
  if (fromLayer.startsWith("src/features/")) {
    if (toLayer.startsWith("src/features/") && toLayer !== fromLayer) {
      return "Features must not import each other; compose them in src/app.";
    }
    if (toLayer === "src/app") return "A feature must not import the app shell.";
  }
  return undefined;
}

/**
 * The architecture as a lint rule: shared code never imports features or the app shell, features never import
 * each other, and src/ and server/ share only the contract module. Relative and `@/` imports are resolved to paths.
 */
const boundaries = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const root = import.meta.dirname;
    const fromLayer = layerOf(path.relative(root, context.filename).split(path.sep).join("/"));
    function check(node) {
      const source = node.source;
      if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
      const specifier = source.value;
      if (!specifier.startsWith(".") && !specifier.startsWith("@/")) return;
      // `@/x` is `src/x` (the path alias in tsconfig.json and vite.config.ts).
      const resolved = specifier.startsWith("@/")
        ? path.join(root, "src", specifier.slice(2))
        : path.resolve(path.dirname(context.filename), specifier);
      const target = path.relative(root, resolved).split(path.sep).join("/");
      const message = boundaryViolation(fromLayer, target);
      if (message) context.report({ node: source, message });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "bench/.work/",
      "bench/floor-app/dist/",
      ".data/",
      ".tmp/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { keyscope: { rules: { boundaries } } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "keyscope/boundaries": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ["src/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // The dashboard never writes to the console: the key could end up there.
    files: ["src/**/*.{ts,tsx}"],
    rules: { "no-console": "error" },
  },
  {
    // One place per fact: every query key comes from the factory, with the connection's scope in it.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/lib/query-keys.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: "Ask src/lib/query-keys.ts for the key (queryKeys.…): every query key is made there.",
        },
      ],
    },
  },
  {
    // The connection's scope is made by one module; a fingerprint made elsewhere is a second scope.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/lib/connection-scope.ts", "src/lib/query-keys.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/fingerprint", "@/lib/fingerprint"],
              message:
                "Ask src/lib/connection-scope.ts (connectionScope, connectionScopeId) for the connection's scope.",
            },
          ],
        },
      ],
    },
  },
  {
    // Command-line programs print their results.
    files: ["server/**/*.ts", "bench/**/*.ts", "test/**/*.ts", "scripts/**/*.{js,mjs,ts}", "*.config.{js,ts}"],
    rules: { "no-console": "off" },
  },
  {
    // vi.waitFor gives up after 1 s, which a busy machine exceeds; Testing Library's waits 10 s (test/src/setup.ts).
    files: ["test/src/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "vi",
          property: "waitFor",
          message: "Use waitFor from @testing-library/react: its timeout is the suite's.",
        },
      ],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    ...tseslint.configs.disableTypeChecked,
  },
);
