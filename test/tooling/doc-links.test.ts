import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { describe, expect, test } from "vitest";

// The documentation is README.md and docs/*.md; its relative links must lead to a file of the repository, and a link
// with `#section` to a heading of that file, as GitHub names it. Code comments cite docs/api.md#… the same way.

const ROOT = posix.resolve(import.meta.dirname, "../..");
const THIS_FILE = "test/tooling/doc-links.test.ts";

/** The repository's files: tracked, or new and not ignored (so a link to `dist/` or `test-results/` fails). */
function repositoryFiles(): Set<string> {
  const listing = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return new Set(listing.split("\0").filter((path) => path !== ""));
}

const files = repositoryFiles();
const docs = [...files].filter((path) => path === "README.md" || /^docs\/[^/]+\.md$/.test(path)).sort();
const read = (path: string): string => readFileSync(posix.join(ROOT, path), "utf8");

/** Markdown without its fenced code blocks and code spans, where a `[x](y)` is text, not a link. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/(`+)[^`]*?\1/g, "");
}

/** The targets of a Markdown text's inline links and images. */
function linkTargets(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] ?? "",
  );
}

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ""] of markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Why `target`, linked from the file `from`, leads nowhere in the repository; undefined when it resolves. */
function brokenBecause(
  from: string,
  target: string,
  repository: ReadonlySet<string>,
  readFile: (path: string) => string,
): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: — not the repository's to check
  const [rawPath = "", anchor] = target.split("#", 2);
  const path = rawPath === "" ? from : posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(rawPath)));
  if (path.startsWith("../") || posix.isAbsolute(path)) return "outside the repository";
  const isDirectory = [...repository].some((file) => file.startsWith(`${path.replace(/\/$/, "")}/`));
  if (!repository.has(path) && !isDirectory) return "no such file";
  if (anchor !== undefined && path.endsWith(".md") && !headingAnchors(readFile(path)).has(anchor))
    return `no heading #${anchor}`;
  return undefined;
}

/** Every broken link of the given Markdown files, as "file: target (why)". */
function brokenLinks(
  markdownFiles: ReadonlyMap<string, string>,
  repository: ReadonlySet<string>,
  readFile: (path: string) => string,
): string[] {
  return [...markdownFiles].flatMap(([file, text]) =>
    linkTargets(text).flatMap((target) => {
      const why = brokenBecause(file, target, repository, readFile);
      return why === undefined ? [] : [`${file}: ${target} (${why})`];
    }),
  );
}

describe("the documentation's links", () => {
  test("every relative link of README.md and docs/*.md leads to a file of the repository and a heading in it", () => {
    expect(docs).toContain("README.md");
    expect(docs).toContain("docs/api.md");
    expect(brokenLinks(new Map(docs.map((path) => [path, read(path)])), files, read)).toEqual([]);
  });

  test("README.md links every file of docs/", () => {
    const linked = new Set(linkTargets(read("README.md")).map((target) => target.split("#")[0]));
    expect(docs.filter((path) => path !== "README.md" && !linked.has(path))).toEqual([]);
  });

  test("every code comment that cites docs/…md#section names a heading there", () => {
    const code = [...files].filter(
      (path) => /^(src|server|test|bench)\//.test(path) && /\.tsx?$/.test(path) && path !== THIS_FILE,
    );
    const citations = code.flatMap((path) =>
      [...read(path).matchAll(/\bdocs\/[\w-]+\.md(?:#[\w-]+)?/g)].map((match) => ({ path, target: match[0] })),
    );
    expect(citations.length).toBeGreaterThan(10);
    const broken = citations.flatMap(({ path, target }) => {
      const why = brokenBecause("cited.md", target, files, read);
      return why === undefined ? [] : [`${path}: ${target} (${why})`];
    });
    expect(broken).toEqual([]);
  });

  test("no code cites a contract or README section outside docs/ (the shared CONTRACT.md is not in the repository)", () => {
    const code = [...files].filter(
      (path) => /^(src|server|test|bench)\//.test(path) && /\.tsx?$/.test(path) && path !== THIS_FILE,
    );
    const outside = code.flatMap((path) =>
      read(path)
        .split("\n")
        .flatMap((line, index) =>
          /CONTRACT\.md|\.\.\/shared\/|README\.md, "/.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(outside).toEqual([]);
  });

  test("a planted broken link is found, and text that only looks like a link is not checked", () => {
    const planted = [
      read("README.md"),
      "[gone](docs/no-such-file.md) [a section that is not there](docs/api.md#no-such-section) [here](#nowhere)",
      "![a missing picture](public/screenshots/no-such.png) [up and out](../outside.md)",
      "`[in a code span](docs/missing-in-code.md)` [elsewhere](https://example.com/x.md)",
      "```\n[in a fence](docs/missing-in-fence.md)\n```",
    ].join("\n\n");
    expect(brokenLinks(new Map([["README.md", planted]]), files, read)).toEqual([
      "README.md: docs/no-such-file.md (no such file)",
      "README.md: docs/api.md#no-such-section (no heading #no-such-section)",
      "README.md: #nowhere (no heading #nowhere)",
      "README.md: public/screenshots/no-such.png (no such file)",
      "README.md: ../outside.md (outside the repository)",
    ]);
  });

  test("anchors are the ones GitHub makes: punctuation dropped, code marks and links unwrapped, repeats numbered", () => {
    expect([
      ...headingAnchors(
        "# A few keys' sums from SQLite\n## `keys.verifyKey`, and [links](x.md)\n## Errors\n## Errors\n",
      ),
    ]).toEqual(["a-few-keys-sums-from-sqlite", "keysverifykey-and-links", "errors", "errors-1"]);
  });
});
