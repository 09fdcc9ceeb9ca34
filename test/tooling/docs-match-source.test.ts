import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { describe, expect, test } from "vitest";
import { ADMIN_COMMANDS, runAdmin } from "../../server/admin/cli";
import { ADMIN_OPTIONS } from "../../server/admin/command";
import {
  CLICKHOUSE_MACROS,
  DOCUMENTED_FUNCTIONS,
  ALLOWED_FUNCTIONS,
  WINDOW_FUNCTIONS,
} from "../../server/analytics/dialect";
import { SERVER_OPTIONS, SERVER_USAGE } from "../../server/process/config";

// The docs name the server's and the admin CLI's flags, and the analytics functions, by hand. These tests compare
// them with what the code accepts, so that a flag or a function added on one side only fails here.

const ROOT = posix.resolve(import.meta.dirname, "../..");
const read = (path: string): string => readFileSync(posix.join(ROOT, path), "utf8");

const flagsOf = (options: object): string[] =>
  Object.keys(options)
    .map((name) => `--${name}`)
    .sort();

/** Every `--flag` a text names (not npm's bare `--`, not the `=value` of `--expires=-3d`). */
function flagsNamed(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((match) => match[0]))].sort();
}

/** What is on one side only, as "only in <name>: --x"; empty when both sides name the same things. */
function oneSided(sides: Record<string, readonly string[]>): string[] {
  const entries = Object.entries(sides);
  return entries.flatMap(([name, items]) =>
    [...new Set(items)]
      .filter((item) => entries.some(([other, otherItems]) => other !== name && !otherItems.includes(item)))
      .map((item) => `only in ${name}: ${item}`),
  );
}

/** Of a usage text's option list, each flag with its description (continuation lines included). */
function usageEntries(usage: string): Map<string, string> {
  const entries = new Map<string, string>();
  let current: string | undefined;
  for (const line of usage.split("\n")) {
    const start = /^ {2}(--[a-z][a-z0-9-]*)\b(.*)$/.exec(line);
    if (start !== null) {
      current = start[1] ?? "";
      entries.set(current, start[2] ?? "");
    } else if (current !== undefined && /^ {3,}\S/.test(line)) {
      entries.set(current, `${entries.get(current) ?? ""} ${line.trim()}`);
    } else {
      current = undefined;
    }
  }
  return entries;
}

/** A Markdown section: from its `## heading` line to the next `## `. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`no section "## ${heading}"`);
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** The README's flag table: each row's flag and its default cell. */
function flagTable(readme: string): Map<string, string> {
  const rows = [...section(readme, "Configuration").matchAll(/^\| `(--[a-z][a-z0-9-]*)[^`]*` \| ([^|]*) \|/gm)];
  return new Map(rows.map(([, flag = "", defaultCell = ""]) => [flag, defaultCell.trim()]));
}

/** Where the README's default (a single code span such as `8787`) differs from what the usage says after "default". */
function defaultsDiffering(table: ReadonlyMap<string, string>, usage: ReadonlyMap<string, string>): string[] {
  return [...table].flatMap(([flag, cell]) => {
    const literal = /^`([^`]+)`$/.exec(cell)?.[1];
    if (literal === undefined) return [];
    const described = usage.get(flag) ?? "";
    return described.includes(`default ${literal}`) || described.includes(`default: ${literal}`)
      ? []
      : [`${flag}: the README says ${literal}, the usage says "${described.trim()}"`];
  });
}

/** The commands ("keys create") that no line of `text` names: the group, then the action as a word later on that line. */
function commandsUnnamed(commands: readonly string[], text: string): string[] {
  const lines = text.split("\n");
  return commands.filter((command) => {
    const [group = "", action] = command.split(" ");
    const escape = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp(
      action === undefined ? `\\b${escape(group)}\\b` : `\\b${escape(group)}\\b.*\\b${escape(action)}\\b`,
    );
    return !lines.some((line) => pattern.test(line));
  });
}

function adminUsage(): string {
  let usage = "";
  const code = runAdmin(["--help"], { stdout: (text) => (usage += text), stderr: () => undefined, stderrIsTTY: false });
  expect(code).toBe(0);
  return usage;
}

const readme = read("README.md");
const serverFlags = flagsOf(SERVER_OPTIONS);
const adminFlags = flagsOf(ADMIN_OPTIONS);

describe("the server's flags", () => {
  test("--help, the parser's options and the README's table name the same flags (--help itself needs no row)", () => {
    expect(
      oneSided({
        "the parser's options": serverFlags,
        "npm start -- --help": [...usageEntries(SERVER_USAGE).keys()],
        "the README's table": [...flagTable(readme).keys(), "--help"],
      }),
    ).toEqual([]);
    expect(flagsNamed(SERVER_USAGE)).toEqual(serverFlags);
  });

  test("the README's defaults are the ones --help gives", () => {
    const table = flagTable(readme);
    expect([...table.values()].filter((cell) => /^`[^`]+`$/.test(cell)).length).toBeGreaterThanOrEqual(6);
    expect(defaultsDiffering(table, usageEntries(SERVER_USAGE))).toEqual([]);
  });

  test("docs/reference-server.md names only flags the server takes, and the README only the server's or the admin CLI's", () => {
    expect(flagsNamed(read("docs/reference-server.md")).filter((flag) => !serverFlags.includes(flag))).toEqual([]);
    expect(flagsNamed(readme).filter((flag) => !serverFlags.includes(flag) && !adminFlags.includes(flag))).toEqual([]);
  });
});

describe("the admin CLI's flags and commands", () => {
  test("--help, the parser's options and docs/admin-cli.md name the same flags", () => {
    expect(
      oneSided({
        "the parser's options": adminFlags,
        "npm run admin -- --help": flagsNamed(adminUsage()),
        "docs/admin-cli.md": flagsNamed(read("docs/admin-cli.md")),
      }),
    ).toEqual([]);
  });

  test("--help and docs/admin-cli.md name every command", () => {
    const commandLines = section(`\n## ${adminUsage().replace(/^Commands:$/m, "## Commands")}`, "Commands");
    expect(ADMIN_COMMANDS.length).toBeGreaterThan(15);
    expect(commandsUnnamed(ADMIN_COMMANDS, commandLines)).toEqual([]);
    expect(commandsUnnamed(ADMIN_COMMANDS, read("docs/admin-cli.md"))).toEqual([]);
  });
});

/** The functions docs/api.md lists: the code spans of its paragraph that begins "The functions:". */
function documentedFunctions(api: string): string[] {
  const paragraph = /^The functions:[\s\S]*?(?=\n\n)/m.exec(section(api, "Analytics"))?.[0] ?? "";
  return [...paragraph.matchAll(/`([^`]+)`/g)]
    .flatMap((match) => (match[1] ?? "").split(/\s+/))
    .filter((name) => name !== "");
}

/** The window functions docs/analytics.md lists: the code span after "the window functions". */
function documentedWindowFunctions(analytics: string): string[] {
  return (/the window functions\s+`([^`]+)`/.exec(analytics)?.[1] ?? "").split(/\s+/).filter((name) => name !== "");
}

describe("the analytics functions", () => {
  test("docs/api.md lists the functions the checker allows (server/analytics/dialect.ts), as spelled there", () => {
    const documented = documentedFunctions(read("docs/api.md"));
    expect(documented.length).toBeGreaterThan(60);
    expect(oneSided({ "docs/api.md": documented, "dialect.ts": DOCUMENTED_FUNCTIONS })).toEqual([]);
  });

  test("docs/analytics.md lists the window functions the checker allows", () => {
    expect(
      oneSided({
        "docs/analytics.md": documentedWindowFunctions(read("docs/analytics.md")),
        "dialect.ts": WINDOW_FUNCTIONS,
      }),
    ).toEqual([]);
  });

  test("every ClickHouse macro defines a function the checker allows (one it refuses could never run)", () => {
    const defined = CLICKHOUSE_MACROS.map((macro) => /^"?(\w+)"?\(/.exec(macro)?.[1] ?? macro);
    expect(defined.filter((name) => !ALLOWED_FUNCTIONS.has(name.toLowerCase()))).toEqual([]);
  });
});

describe("the comparisons find what is on one side only", () => {
  test("a flag added to the parser, the help or the README alone", () => {
    const plantedReadme = readme.replace("| `--port N` |", "| `--verbose` | — | planted |\n| `--port N` |");
    expect(
      oneSided({
        "the parser's options": [...serverFlags, "--planted-option"],
        "npm start -- --help": [...usageEntries(`${SERVER_USAGE}  --planted-help  a planted flag\n`).keys()],
        "the README's table": [...flagTable(plantedReadme).keys(), "--help"],
      }),
    ).toEqual([
      "only in the parser's options: --planted-option",
      "only in npm start -- --help: --planted-help",
      "only in the README's table: --verbose",
    ]);
  });

  test("a default changed in the README, a command the docs do not name, a function listed on one side", () => {
    const plantedReadme = readme.replace("| `--port N` | `8787` |", "| `--port N` | `8080` |");
    expect(defaultsDiffering(flagTable(plantedReadme), usageEntries(SERVER_USAGE))).toEqual([
      expect.stringMatching(/^--port: the README says 8080, the usage says "PORT .*default 8787/),
    ]);
    expect(commandsUnnamed([...ADMIN_COMMANDS, "keys export", "rotate"], read("docs/admin-cli.md"))).toEqual([
      "keys export",
      "rotate",
    ]);
    const plantedApi = read("docs/api.md").replace("`count sum", "`count multiIf sum");
    expect(
      oneSided({
        "docs/api.md": documentedFunctions(plantedApi),
        "dialect.ts": [...DOCUMENTED_FUNCTIONS, "toStartOfQuarter"],
      }),
    ).toEqual(["only in docs/api.md: multiIf", "only in dialect.ts: toStartOfQuarter"]);
  });
});
