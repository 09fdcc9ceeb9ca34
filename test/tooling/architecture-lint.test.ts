import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, test } from "vitest";

// The project's config without type information: the boundary rule reads import paths only, and building the
// TypeScript program for these files was most of this file's time.
const eslint = new ESLint({ overrideConfig: tseslint.configs.disableTypeChecked });

/** The boundary messages ESLint reports for `code` written at `filePath` (its path decides the layer). */
async function boundaryMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "keyscope/boundaries")
    .map((message) => message.message);
}

describe("the architecture lint", () => {
  test("shared code may not import a feature or the app shell", async () => {
    expect(
      await boundaryMessages(
        "src/lib/check-base-url.ts",
        'export { ErrorPanel } from "../features/troubleshoot/components/error-panel";\n',
      ),
    ).toEqual(["Shared code must not import a feature."]);
    expect(await boundaryMessages("src/components/copy-button.tsx", 'export { App } from "../app/app";\n')).toEqual([
      "Shared code must not import the app shell.",
    ]);
  });

  test("a feature may not import another feature, even through a dynamic import", async () => {
    expect(
      await boundaryMessages(
        "src/features/keys/api/list-keys.ts",
        'export const panel = import("../../troubleshoot/components/error-panel");\n',
      ),
    ).toEqual(["Features must not import each other; compose them in src/app."]);
  });

  test("an import through the @/ alias of src/ is held to the same layers", async () => {
    expect(
      await boundaryMessages(
        "src/features/keys/api/list-keys.ts",
        'export { ErrorPanel } from "@/features/troubleshoot/components/error-panel";\n',
      ),
    ).toEqual(["Features must not import each other; compose them in src/app."]);
    expect(await boundaryMessages("src/lib/check-base-url.ts", 'export { App } from "@/app/app";\n')).toEqual([
      "Shared code must not import the app shell.",
    ]);
    expect(await boundaryMessages("server/app.ts", 'export { keyFacts } from "@/lib/key-facts";\n')).toEqual([
      "The server shares only src/lib/contract.ts with the dashboard.",
    ]);
    expect(
      await boundaryMessages(
        "src/features/keys/api/list-keys.ts",
        'export { fingerprint } from "@/lib/fingerprint";\n',
      ),
    ).toEqual([]);
  });

  test("a feature may import its own modules and shared code", async () => {
    expect(
      await boundaryMessages(
        "src/features/keys/api/list-keys.ts",
        'export { listKeys } from "../../../lib/api/list-keys";\nexport { KeysList } from "../components/keys-list";\n',
      ),
    ).toEqual([]);
  });

  test("a query key is made only by the factory, and the connection's scope only by its module", async () => {
    const messages = async (filePath: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath });
      return (result?.messages ?? []).map((message) => message.ruleId);
    };
    const ownKey = 'export const options = { queryKey: ["keys", "list"] };\n';
    expect(await messages("src/features/keys/api/list-keys.ts", ownKey)).toEqual(["no-restricted-syntax"]);
    expect(await messages("src/lib/query-keys.ts", ownKey)).toEqual([]);
    const ownScope = 'import { fingerprint } from "@/lib/fingerprint";\nexport const scope = fingerprint("");\n';
    expect(await messages("src/features/key-actions/known-apis.ts", ownScope)).toEqual(["no-restricted-imports"]);
    expect(await messages("src/lib/connection-scope.ts", ownScope)).toEqual([]);
  });

  test("the server shares only the contract module with the dashboard", async () => {
    expect(await boundaryMessages("server/app.ts", 'export { LIST_KEYS_PATH } from "../src/lib/contract";\n')).toEqual(
      [],
    );
    expect(await boundaryMessages("server/app.ts", 'export { listKeys } from "../src/lib/api/list-keys";\n')).toEqual([
      "The server shares only src/lib/contract.ts with the dashboard.",
    ]);
    expect(
      await boundaryMessages("src/lib/check-base-url.ts", 'export { createApp } from "../../server/app";\n'),
    ).toEqual(["The dashboard must not import the server."]);
  });
});
