import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../server/cli";

const THIS_FILE = "test/tooling/cited-paths.test.ts";

/**
 * A code comment that names a file of the repository (`see test/tooling/…test.ts`) names one that exists: files
 * move and tests are renamed, and a comment pointing at nothing sends a reader looking for it.
 */

const CITED = /\b(?:src|server|test|bench|tooling|docs)\/[\w./-]*\w\.(?:tsx?|md|json)\b/g;
const COMMENT = /^\s*(?:\/\/|\/\*|\*)|\s\/\/\s/;

function codeFiles(): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts", "*.tsx"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter(
      (path) =>
        /^(src|server|test|bench|tooling)\//.test(path) && path !== THIS_FILE && existsSync(join(REPO_ROOT, path)),
    );
}

function missingCitations(files: readonly string[], read: (path: string) => string): string[] {
  return files.flatMap((path) =>
    read(path)
      .split("\n")
      .flatMap((line, index) =>
        COMMENT.test(line)
          ? [...line.matchAll(CITED)]
              .map((match) => match[0])
              .filter((cited) => !existsSync(join(REPO_ROOT, cited)))
              .map((cited) => `${path}:${index + 1}: ${cited}`)
          : [],
      ),
  );
}

/** Paths in code spans of the README and docs/ (`server/db/keys.ts`): every line of them is prose. */
function missingInDocs(): string[] {
  const docs = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "README.md", "docs/*.md"],
    {
      cwd: REPO_ROOT,
      encoding: "utf8",
    },
  )
    .split("\n")
    .filter((path) => path !== "" && existsSync(join(REPO_ROOT, path)));
  return docs.flatMap((path) =>
    [
      ...readFileSync(join(REPO_ROOT, path), "utf8").matchAll(
        /`((?:src|server|test|bench|tooling)\/[\w./-]*\w\.(?:tsx?|md|json))`/g,
      ),
    ]
      .map((match) => match[1] ?? "")
      .filter((cited) => !existsSync(join(REPO_ROOT, cited)))
      .map((cited) => `${path}: ${cited}`),
  );
}

describe("files named in code comments and in the docs", () => {
  test("each file the README and docs/ name in code exists", () => {
    expect(missingInDocs()).toEqual([]);
  });

  test("each file a code comment names exists", () => {
    expect(missingCitations(codeFiles(), (path) => readFileSync(join(REPO_ROOT, path), "utf8"))).toEqual([]);
  });

  test("a planted comment naming a file that is not there is found", () => {
    const planted = "/** The flags (test/tooling/cli-docs.test.ts). */\nconst x = 1; // see server/app.ts\n";
    expect(missingCitations(["planted.ts"], () => planted)).toEqual(["planted.ts:1: test/tooling/cli-docs.test.ts"]);
  });
});
