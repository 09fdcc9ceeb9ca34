// @ts-check
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const features = ["connect", "keys", "troubleshoot"];

/**
 * The architecture, as import zones: shared code never imports features or the app shell,
 * features never import each other, and src/ and server/ share only the contract module.
 */
const zones = [
  ...["./src/lib", "./src/components"].flatMap((target) => [
    { target, from: "./src/features", message: "Shared code must not import a feature." },
    { target, from: "./src/app", message: "Shared code must not import the app shell." },
  ]),
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: "./src/features",
    except: [`./${feature}`],
    message: "Features must not import each other; compose them in src/app.",
  })),
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: "./src/app",
    message: "A feature must not import the app shell.",
  })),
  { target: "./src", from: "./server", message: "The dashboard must not import the server." },
  {
    target: "./server",
    from: "./src",
    except: ["./lib/contract.ts"],
    message: "The server shares only src/lib/contract.ts with the dashboard.",
  },
];

export default tseslint.config(
  {
    ignores: ["dist/", "node_modules/", "test-results/", "playwright-report/", "bench/.work/", "bench/floor-app/dist/", ".data/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "import-x/no-restricted-paths": ["error", { zones }],
      "import-x/no-cycle": "error",
      "import-x/no-self-import": "error",
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
    // Command-line programs print their results.
    files: ["server/**/*.ts", "bench/**/*.ts", "test/**/*.ts", "scripts/**/*.{js,mjs,ts}", "*.config.{js,ts}"],
    rules: { "no-console": "off" },
  },
  {
    files: ["**/*.{js,mjs}"],
    ...tseslint.configs.disableTypeChecked,
  },
);
