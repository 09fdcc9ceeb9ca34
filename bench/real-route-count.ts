/**
 * `npx tsx bench/real-route-count.ts [--mirror DIR] [--names FILE]`: counts, by program, how many of the real
 * service's route-test scenarios `test/server/real-routes/` replays, by the rules of `docs/real-route-tests.md`:
 * - a scenario is each `t.Run`, or a `Test…` function without one;
 * - a `t.Run` in a loop counts once; it is replayed only if every one of its cases is (a test here each);
 * - a group (a `t.Run` holding `t.Run`s) counts as replayed when all its children are; it gets the real answer only
 *   if all of them do, else it counts as served differently (the reading that does not flatter us);
 * - a test here replays the real scenario whose name it carries: its title (the last part of its vitest name), or
 *   one of the parts of a title joined with " / ", equals the real name or is the real name followed by " (…)";
 *   "served differently" in a title puts its scenarios in that column, "the seed's 401" in the seed's 401 column;
 *   each part of a title replays one real scenario at most.
 * The real tests are read from the mirrored repository (a bare git dir, at HEAD); this repo's tests from
 * `npx vitest list --json` (or `--names FILE`, that command's output). Prints the tables and the names of the
 * scenarios not replayed. Writes nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as v from "valibot";
import { REPO_ROOT } from "./lib/paths";

/** A row of the doc's second table: its operations and their real route directories. */
interface Row {
  label: string;
  dirs: RouteDir[];
}
/** A real route directory, the test file here replaying it, and the describe block there if the file holds two. */
interface RouteDir {
  dir: string;
  file: string;
  describe?: string;
}

const READ_ROUTES: RouteDir[] = [
  { dir: "v2_keys_verify_key", file: "keys-verify-key.test.ts" },
  { dir: "v2_keys_get_key", file: "keys-get-key-and-whoami.test.ts", describe: "keys.getKey" },
  { dir: "v2_keys_whoami", file: "keys-get-key-and-whoami.test.ts", describe: "keys.whoami" },
  { dir: "v2_apis_list_keys", file: "apis-list-keys.test.ts" },
  { dir: "v2_analytics_get_verifications", file: "analytics-get-verifications.test.ts" },
];

export const ROWS: Row[] = [
  {
    label: "the five read routes (verifyKey, getKey, whoami, apis.listKeys, analytics.getVerifications)",
    dirs: READ_ROUTES,
  },
  ...(
    [
      ["keys.deleteKey", "v2_keys_delete_key", "keys-delete-key.test.ts"],
      ["keys.updateCredits", "v2_keys_update_credits", "keys-update-credits.test.ts"],
      ["apis.getApi", "v2_apis_get_api", "apis-get-api.test.ts"],
      ["keys.rerollKey", "v2_keys_reroll_key", "keys-reroll-key.test.ts"],
      ["keys.createKey", "v2_keys_create_key", "keys-create-key.test.ts"],
      ["keys.updateKey", "v2_keys_update_key", "keys-update-key.test.ts"],
      ["keys.addPermissions", "v2_keys_add_permissions", "keys-add-permissions.test.ts"],
      ["keys.removePermissions", "v2_keys_remove_permissions", "keys-remove-permissions.test.ts"],
      ["keys.setPermissions", "v2_keys_set_permissions", "keys-set-permissions.test.ts"],
      ["keys.addRoles", "v2_keys_add_roles", "keys-add-roles.test.ts"],
      ["keys.removeRoles", "v2_keys_remove_roles", "keys-remove-roles.test.ts"],
      ["keys.setRoles", "v2_keys_set_roles", "keys-set-roles.test.ts"],
      ["apis.createApi", "v2_apis_create_api", "apis-create-api.test.ts"],
      ["apis.deleteApi", "v2_apis_delete_api", "apis-delete-api.test.ts"],
      ["keys.migrateKeys", "v2_keys_migrate_keys", "keys-migrate-keys.test.ts"],
      [
        "permissions.listPermissions",
        "v2_permissions_list_permissions",
        "permissions-list-permissions-and-roles.test.ts",
        "listPermissions",
      ],
      [
        "permissions.listRoles",
        "v2_permissions_list_roles",
        "permissions-list-permissions-and-roles.test.ts",
        "listRoles",
      ],
      ["identities.listIdentities", "v2_identities_list_identities", "identities.test.ts", "listIdentities"],
      ["identities.getIdentity", "v2_identities_get_identity", "identities.test.ts", "getIdentity"],
      ["identities.createIdentity", "v2_identities_create_identity", "identities-changes.test.ts", "createIdentity"],
      ["identities.updateIdentity", "v2_identities_update_identity", "identities-changes.test.ts", "updateIdentity"],
      ["identities.deleteIdentity", "v2_identities_delete_identity", "identities-changes.test.ts", "deleteIdentity"],
      [
        "permissions.createPermission",
        "v2_permissions_create_permission",
        "permissions-permission-changes.test.ts",
        "createPermission",
      ],
      [
        "permissions.getPermission",
        "v2_permissions_get_permission",
        "permissions-permission-changes.test.ts",
        "getPermission",
      ],
      [
        "permissions.deletePermission",
        "v2_permissions_delete_permission",
        "permissions-permission-changes.test.ts",
        "deletePermission",
      ],
      ["permissions.createRole", "v2_permissions_create_role", "permissions-role-changes.test.ts", "createRole"],
      ["permissions.getRole", "v2_permissions_get_role", "permissions-role-changes.test.ts", "getRole"],
      ["permissions.deleteRole", "v2_permissions_delete_role", "permissions-role-changes.test.ts", "deleteRole"],
      [
        "permissions.setRolePermissions",
        "v2_permissions_set_role_permissions",
        "permissions-role-changes.test.ts",
        "setRolePermissions",
      ],
      ["ratelimit.limit", "v2_ratelimit_limit", "ratelimit-limit.test.ts"],
      ["ratelimit.multiLimit", "v2_ratelimit_multi_limit", "ratelimit-multi-limit.test.ts"],
      ["ratelimit.setOverride", "v2_ratelimit_set_override", "ratelimit-set-override.test.ts"],
      ["ratelimit.getOverride", "v2_ratelimit_get_override", "ratelimit-get-override.test.ts"],
      ["ratelimit.listOverrides", "v2_ratelimit_list_overrides", "ratelimit-list-overrides.test.ts"],
      ["ratelimit.deleteOverride", "v2_ratelimit_delete_override", "ratelimit-delete-override.test.ts"],
      ["analytics.getRatelimits", "v2_analytics_get_ratelimits", "analytics-get-ratelimits.test.ts"],
    ] as const
  ).map(([label, dir, file, describe]) => ({
    label: `\`${label}\``,
    dirs: [describe ? { dir, file, describe } : { dir, file }],
  })),
];

/**
 * Real names that our tests carry in another form, each checked by hand against the two tests. Keyed by route
 * directory, then by the real name (for a `fmt.Sprintf` name: its format string), to the name used here.
 */
export const ALIASES: Record<string, Record<string, string>> = {
  v2_keys_update_credits: {
    // `fmt.Sprintf("set to fixed value of %d", setTo)`: the value is random there; the test here says "set to fixed value".
    "set to fixed value of %d": "set to fixed value",
    // `fmt.Sprintf("increase credits by %d", increaseBy)`, as above.
    "increase credits by %d": "increase credits",
    // `fmt.Sprintf("decrease credits by %d", decreaseBy)`, as above.
    "decrease credits by %d": "decrease credits",
  },
};

// ---- Reading the real Go tests -------------------------------------------------------------------------------

/** A real scenario: a `t.Run` (a loop's counts once, with its cases) or a `Test…` function without one. */
export interface Scenario {
  dir: string;
  file: string;
  testFunction: string;
  name: string;
  /** The names of the `t.Run`s it is nested in, outermost first. */
  parents: string[];
  /** The case names of a `t.Run` in a loop (each must be replayed); empty otherwise. */
  cases: string[];
  children: Scenario[];
}

/** The source with comments and the insides of string and rune literals blanked, so braces can be matched. */
function mask(src: string): string {
  const out = src.split("");
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  while (i < src.length) {
    const c = src[i];
    if (c === "/" && src[i + 1] === "/") {
      const end = src.indexOf("\n", i);
      const stop = end === -1 ? src.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && src[i + 1] === "*") {
      const stop = src.indexOf("*/", i + 2) + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let k = i + 1;
      while (src[k] !== c) k += src[k] === "\\" ? 2 : 1;
      blank(i + 1, k);
      i = k + 1;
    } else if (c === "`") {
      const k = src.indexOf("`", i + 1);
      blank(i + 1, k);
      i = k + 1;
    } else i++;
  }
  return out.join("");
}

function matchingBrace(masked: string, open: number): number {
  let depth = 0;
  for (let k = open; k < masked.length; k++) {
    if (masked[k] === "{") depth++;
    else if (masked[k] === "}" && --depth === 0) return k;
  }
  throw new Error(`unbalanced brace at ${open}`);
}

/** The Go string literal starting at `at` ("…" or `…`), decoded. */
function literalAt(src: string, at: number): string {
  if (src[at] === "`") return src.slice(at + 1, src.indexOf("`", at + 1));
  let k = at + 1;
  while (src[k] !== '"') k += src[k] === "\\" ? 2 : 1;
  return v.parse(v.string(), JSON.parse(src.slice(at, k + 1)));
}

interface Span {
  start: number;
  end: number;
}

/** Every `for` statement's body, and the span of its header (where a map literal may hold the cases). */
function forLoops(masked: string): { header: Span; body: Span }[] {
  const loops: { header: Span; body: Span }[] = [];
  for (const m of masked.matchAll(/^[ \t]*for\b/gm)) {
    const start = m.index + m[0].length;
    // The body's brace is the first at the header's level with a space before it (gofmt's `for … {`); a composite
    // literal's follows its type (`map[string]T{`, `[]struct { … }{`).
    let open = masked.indexOf("{", start);
    while (masked[open - 1] !== " " || /\b(struct|interface) $/.test(masked.slice(open - 10, open)))
      open = masked.indexOf("{", matchingBrace(masked, open) + 1);
    loops.push({ header: { start, end: open }, body: { start: open, end: matchingBrace(masked, open) } });
  }
  return loops;
}

function caseNames(src: string, masked: string, nameArg: string, loop: { header: Span }, from: number): string[] {
  const found = (re: RegExp, span: Span) =>
    [...masked.slice(span.start, span.end).matchAll(re)].map((m) =>
      literalAt(src, span.start + m.index + m[0].length - 1),
    );
  // A map's keys: `for name, x := range map[string]T{"a": …}`.
  const keys = keysOf(src, masked, loop.header);
  if (keys.length > 0) return keys;
  // A table of structs: `tc.name` reads the `name:` fields written before the loop (and after the previous one).
  const field = nameArg.split(".").pop() ?? nameArg;
  const span = { start: from, end: loop.header.end };
  const named = found(new RegExp(`\\b${field}:\\s*["\`]`, "g"), span);
  if (named.length > 0) return named;
  // Positional struct literals (`{"no search", "", 100}`) when the name is the struct's first field.
  const struct = /struct\s*\{\s*(\w+)/.exec(masked.slice(span.start, span.end));
  if (struct?.[1] !== field) return [];
  const typeEnd = matchingBrace(masked, masked.indexOf("{", span.start + struct.index));
  return found(/\{\s*"/g, { start: typeEnd + 1, end: span.end });
}

/** A map literal's keys, its own only: a key of a map or struct inside one of its values is not a case. */
function keysOf(src: string, masked: string, span: Span): string[] {
  const names: string[] = [];
  const open = masked.indexOf("{", span.start);
  if (open === -1 || open >= span.end) return names;
  let depth = 0;
  for (let k = open; k < span.end; k++) {
    const c = masked[k];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === '"' && depth === 1 && /^"[^"\n]*"\s*:/.test(masked.slice(k))) {
      names.push(literalAt(src, k));
      k = masked.indexOf('"', k + 1);
    }
  }
  return names;
}

export function scenariosOf(dir: string, file: string, src: string): Scenario[] {
  const masked = mask(src);
  const loops = forLoops(masked);
  const scenarios: Scenario[] = [];
  for (const fn of masked.matchAll(/^func (Test\w+)\(\s*\w+ \*testing\.T\)\s*\{/gm)) {
    const testFunction = fn[1] ?? "";
    const bodyStart = fn.index + fn[0].length - 1;
    const body: Span = { start: bodyStart, end: matchingBrace(masked, bodyStart) };
    const runs: (Scenario & { span: Span; at: number })[] = [];
    for (const call of masked.slice(body.start, body.end).matchAll(/\bt\.Run\(\s*/g)) {
      const at = body.start + call.index;
      const argAt = at + call[0].length;
      const open = masked.indexOf("{", masked.indexOf("func(", argAt));
      const span = { start: open, end: matchingBrace(masked, open) };
      let name: string;
      let cases: string[] = [];
      if (src[argAt] === '"' || src[argAt] === "`") name = literalAt(src, argAt);
      else if (masked.startsWith("fmt.Sprintf(", argAt)) name = literalAt(src, argAt + "fmt.Sprintf(".length);
      else name = /^[\w.]+/.exec(masked.slice(argAt))?.[0] ?? "";
      const loop = loops
        .filter((l) => l.body.start > body.start && l.body.start < at && at < l.body.end)
        .sort((a, b) => b.body.start - a.body.start)[0];
      const parent = runs
        .filter((r) => r.span.start < at && at < r.span.end)
        .sort((a, b) => b.span.start - a.span.start)[0];
      if (loop && (!parent || loop.body.start > parent.span.start)) {
        // The cases are written after the previous t.Run of the same scope, if any.
        const scopeStart = parent?.span.start ?? body.start;
        const after = Math.max(
          scopeStart,
          ...runs.filter((r) => r.span.end < loop.header.start && r.at > scopeStart).map((r) => r.span.end),
        );
        cases = caseNames(src, masked, name, loop, after);
        // Cases not written in the test (a range over the package's own tables): matched by the bare expression,
        // which no test here carries, so the scenario counts as not replayed unless an alias says otherwise.
        if (cases.length === 0)
          console.error(
            `note: ${dir}/${file} ${testFunction}: t.Run(${name}) loops over cases not written in the test`,
          );
      }
      const parents = parent ? [...parent.parents, parent.name] : [];
      const scenario = { dir, file, testFunction, name, parents, cases, children: [], span, at };
      (parent ? parent.children : scenarios).push(scenario);
      runs.push(scenario);
    }
    if (runs.length === 0)
      scenarios.push({ dir, file, testFunction, name: testFunction, parents: [], cases: [], children: [] });
  }
  return scenarios;
}

// ---- Matching them to this repo's tests -------------------------------------------------------------------------

export type Column = "real answer" | "seed's 401" | "other served differently" | "not replayed";

interface Slot {
  file: string;
  fullName: string;
  part: string;
  column: Exclude<Column, "not replayed">;
  claimedBy?: Scenario;
}

/** Titles that join the names of the real scenarios they replay otherwise than with " / ", split by hand. */
export const JOINED_TITLES: Record<string, string[]> = {
  // permissions-permission-changes.test.ts: real names that hold " / " themselves (getPermission's TestValidationErrors).
  "missing permission id / slug": ["missing permission id / slug"],
  "empty permission id / slug": ["empty permission id / slug"],
  // keys-verify-key.test.ts: one key, both real checks of the "key with permissions" group, one after the other.
  "key with permissions: with direct permission valid, missing permissions": [
    "key with permissions: with direct permission valid",
    "key with permissions: missing permissions",
  ],
};

export function slotsOf(tests: { file: string; name: string }[]): Slot[] {
  return tests.flatMap(({ file, name }) => {
    const title = name.split(" > ").pop() ?? name;
    const column: Slot["column"] = !title.includes("served differently")
      ? "real answer"
      : title.includes("the seed's 401")
        ? "seed's 401"
        : "other served differently";
    return (JOINED_TITLES[title] ?? title.split(" / ")).map((part) => ({ file, fullName: name, part, column }));
  });
}

/**
 * Whether a title's part names a real scenario: the name, or the name and " (…)"; either may follow the name of an
 * enclosing real `t.Run`, the `Test…` function or the route's describe block and ": " ("TestX: case"). A `Test…`
 * function without `t.Run` may also be followed by ": " and what the test checks.
 */
function carries(part: string, sc: Scenario, name: string, prefixes: string[]): boolean {
  const prefix = prefixes.find((p) => part.startsWith(`${p}: `));
  const rest = prefix === undefined ? part : part.slice(prefix.length + 2);
  return (
    rest === name ||
    rest.startsWith(`${name} (`) ||
    (sc.name === sc.testFunction && sc.cases.length === 0 && part.startsWith(`${name}: `))
  );
}

/** Sorts each scenario (and its children) into a column, claiming the test slots that replay it. */
export function classify(route: RouteDir, scenarios: Scenario[], slots: Slot[]): Map<Scenario, Column> {
  const columns = new Map<Scenario, Column>();
  const describe = route.describe;
  const inScope = slots.filter(
    (s) =>
      s.file === route.file &&
      (!describe || s.fullName.split(" > ").some((d) => d === describe || d.startsWith(`${describe}: `))),
  );
  const status = (sc: Scenario) => /^(\d{3})_/.exec(sc.file)?.[1];
  const claim = (sc: Scenario, name: string): Slot | undefined => {
    const wanted = ALIASES[route.dir]?.[name] ?? name;
    const prefixes = [sc.testFunction, ...sc.parents, ...(describe ? [describe] : [])];
    const free = inScope.filter((s) => !s.claimedBy && carries(s.part, sc, wanted, prefixes));
    // Where two real files use one name, the test under the describe of the real file's status (or its Test
    // function) is the one replaying it.
    const code = status(sc);
    const preferred = free.find(
      (s) =>
        (code &&
          s.fullName
            .split(" > ")
            .slice(0, -1)
            .some((d) => d.includes(code))) ||
        s.fullName.includes(sc.testFunction),
    );
    const slot = preferred ?? free[0];
    if (slot) slot.claimedBy = sc;
    if (slot && process.env.REAL_ROUTE_COUNT_MATCHES)
      console.error(`${sc.dir}/${sc.file} ${sc.testFunction} > ${name}  <=  ${slot.fullName}`);
    return slot;
  };
  const leaves: Scenario[] = [];
  const walk = (sc: Scenario) => (sc.children.length ? sc.children.forEach(walk) : leaves.push(sc));
  scenarios.forEach(walk);
  // Names used twice in one directory first, so that the status-matched test goes to the right one.
  const duplicated = (sc: Scenario) => leaves.filter((o) => o.name === sc.name).length > 1;
  for (const sc of [...leaves.filter(duplicated), ...leaves.filter((l) => !duplicated(l))]) {
    const claimed = (sc.cases.length ? sc.cases : [sc.name]).map((n) => claim(sc, n));
    const found = claimed.filter((s): s is Slot => s !== undefined);
    columns.set(
      sc,
      found.length < claimed.length
        ? "not replayed"
        : found.some((s) => s.column === "seed's 401")
          ? "seed's 401"
          : found.some((s) => s.column === "other served differently")
            ? "other served differently"
            : "real answer",
    );
  }
  const group = (sc: Scenario): Column => {
    if (!sc.children.length) return columns.get(sc) ?? "not replayed";
    const kids = sc.children.map(group);
    const column: Column = kids.includes("not replayed")
      ? "not replayed"
      : kids.every((k) => k === "real answer")
        ? "real answer"
        : "other served differently";
    columns.set(sc, column);
    return column;
  };
  scenarios.forEach(group);
  return columns;
}

// ---- Running it -------------------------------------------------------------------------------------------------

const VitestList = v.array(v.object({ name: v.string(), file: v.string() }));

function git(mirror: string, ...args: string[]): string {
  return execFileSync("git", ["-C", mirror, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** `npx vitest list --json=FILE` of the real-route tests (collects them, runs none); returns FILE. */
function vitestList(): string {
  const file = join(mkdtempSync(join(tmpdir(), "real-route-count-")), "list.json");
  execFileSync("npx", ["vitest", "list", `--json=${file}`, "test/server/real-routes/"], {
    cwd: REPO_ROOT,
    stdio: "ignore",
  });
  return file;
}

function main(): void {
  const { values } = parseArgs({
    options: { mirror: { type: "string", default: "/work/.mirror/unkeyed+unkey/repo" }, names: { type: "string" } },
  });
  const mirror = values.mirror;
  const listJson = readFileSync(values.names ?? vitestList(), "utf8");
  const tests = v
    .parse(VitestList, JSON.parse(listJson))
    .map((t) => ({ name: t.name, file: t.file.split("/").pop() ?? t.file }));
  const slots = slotsOf(tests);
  const commit = git(mirror, "rev-parse", "HEAD").trim();
  const paths = git(mirror, "ls-tree", "-r", "HEAD", "--name-only").split("\n");

  const counts = ROWS.map((row) => {
    const all = new Map<Scenario, Column>();
    for (const route of row.dirs) {
      const files = paths.filter((p) => p.startsWith(`svc/api/routes/${route.dir}/`) && p.endsWith("_test.go"));
      const scenarios = files.flatMap((p) =>
        scenariosOf(route.dir, p.split("/").pop() ?? p, git(mirror, "show", `HEAD:${p}`)),
      );
      for (const [sc, col] of classify(route, scenarios, slots)) all.set(sc, col);
    }
    const n = (c: Column) => [...all.values()].filter((x) => x === c).length;
    return {
      row,
      all,
      total: all.size,
      real: n("real answer"),
      seed: n("seed's 401"),
      other: n("other served differently"),
      missing: n("not replayed"),
    };
  });

  console.log(`mirror ${mirror} at ${commit}\n`);
  console.log("| real directory | here | tests |\n| --- | --- | --- |");
  const files = [...new Set(ROWS.flatMap((r) => r.dirs.map((d) => d.file)))];
  for (const file of files) {
    const dirs = ROWS.flatMap((r) => r.dirs)
      .filter((d) => d.file === file)
      .map((d) => `\`${d.dir}\``);
    console.log(`| ${dirs.join(", ")} | \`${file}\` | ${tests.filter((t) => t.file === file).length} |`);
  }
  console.log(
    "\n| operation(s) | scenarios | replayed | real answer | seed's 401 | other served differently | not replayed |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  const sum = { total: 0, real: 0, seed: 0, other: 0, missing: 0 };
  for (const c of counts) {
    console.log(
      `| ${c.row.label} | ${c.total} | ${c.total - c.missing} | ${c.real} | ${c.seed} | ${c.other} | ${c.missing} |`,
    );
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += c[k];
  }
  console.log(
    `| **all operations served** | **${sum.total}** | **${sum.total - sum.missing}** | **${sum.real}** | **${sum.seed}** | **${sum.other}** | **${sum.missing}** |`,
  );
  const bar = Math.ceil(0.95 * (sum.total - sum.seed));
  console.log(
    `\nthe seed's 401 aside: ${sum.real} of ${sum.total - sum.seed} (${((100 * sum.real) / (sum.total - sum.seed)).toFixed(1)}%); ` +
      `95% is ${bar}: ${sum.real >= bar ? "met" : "NOT met"}`,
  );
  // The groups, for the reading that counts only the t.Runs that hold no other (the doc's rule counts groups).
  const groups = counts.flatMap((c) => [...c.all].filter(([sc]) => sc.children.length > 0));
  const leafReal = sum.real - groups.filter(([, col]) => col === "real answer").length;
  const leafTotal = sum.total - sum.seed - groups.length;
  console.log(
    `groups (t.Runs holding t.Runs): ${groups.length}, ${groups.filter(([, col]) => col === "real answer").length} with the real answer; ` +
      `counting only the others: ${leafReal} of ${leafTotal} (${((100 * leafReal) / leafTotal).toFixed(1)}%), 95% is ${Math.ceil(0.95 * leafTotal)}`,
  );
  console.log("\nnot replayed:");
  for (const c of counts)
    for (const [sc, col] of c.all)
      if (col === "not replayed")
        console.log(
          `  ${sc.dir}/${sc.file} ${sc.testFunction}${sc.name === sc.testFunction ? "" : ` > "${sc.name}"`}${sc.cases.length ? ` (cases: ${sc.cases.map((c) => `"${c}"`).join(", ")})` : ""}${sc.children.length ? " (a group)" : ""}`,
        );
  const unclaimed = slots.filter((s) => !s.claimedBy && ROWS.some((r) => r.dirs.some((d) => d.file === s.file)));
  console.log(
    `\ntests here replaying no real scenario (own checks, or a name that does not match): ${unclaimed.length}`,
  );
  for (const s of unclaimed)
    console.log(`  ${s.file}: ${s.fullName}${s.part === s.fullName.split(" > ").pop() ? "" : ` [part "${s.part}"]`}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) main();
