import {
  DuckDBMaterializedResult,
  type DuckDBConnection,
  type DuckDBDataChunk,
  type DuckDBInstance,
  type DuckDBResult,
} from "@duckdb/node-api";
import { boundRows } from "./bound-rows";
import { checkQuery } from "./check-query";
import type { AnalyticsLimits } from "./limits";
import { rewriteLongInLists } from "./in-list";
import type { KeyRollup } from "./key-rollup";
import { planRollupQuery, type RollupPlan } from "./key-rollup-plan";
import { rowsJson } from "./result-json";
import type { QueryOutcome } from "./query-outcome";
import type { StoreSync } from "./store-sync";
import { boundsQuery, filledSql, splitWithFill, type Column, type FillClause } from "./with-fill";
import { isObject } from "./json-object";
import { quoteKeywordColumns } from "./keyword-columns";
import { rewriteParametricCalls } from "./parametric-calls";
import { FAMILIES, publicTables, VERIFICATIONS, type Family, type FamilyName } from "./store-schema";

/** One query, as the analytics thread receives it. */
export interface QueryRequest {
  /** Whose tables it reads: the verifications' (analytics.getVerifications) or the rate-limit decisions'. */
  family: FamilyName;
  workspaceId: string;
  sql: string;
  /** How many days back the query may reach (the workspace's retention). */
  retentionDays: number;
  /**
   * Only the rows of these key spaces (verifications) or namespaces (rate-limit decisions), none when empty; every one
   * of the workspace's when undefined.
   */
  narrowTo: readonly string[] | undefined;
  /** The seq of the newest row of the family committed when the query arrived: it answers from those rows. */
  upTo: number;
  /** The instant `now()` is, when the engine's clock is pinned; the host's (DuckDB's own for `now()`) when undefined. */
  now: number | undefined;
}

export interface QueryEngine {
  /** Answers one query over one workspace's rows; never rejects for anything the query does. */
  query(request: QueryRequest): Promise<QueryOutcome>;
  /** How many queries DuckDB is executing right now. */
  readonly runningQueries: number;
  /** Interrupts the queries still running, waits for them, and closes the connections. */
  close(): Promise<void>;
}

// Workspace ids are this server's own, key space and namespace ids those a root key's permissions name (letters, digits
// and _, as a permission's middle part): each is checked before it goes into a view as a literal.
const WORKSPACE_ID = /^ws_[A-Za-z0-9]{1,64}$/;
const NARROW_ID = /^[A-Za-z0-9_]{1,255}$/;
const IDLE_CONNECTIONS = 16;
/** Checked queries remembered by their text: a dashboard sends the same few again and again. */
const CHECKED_QUERIES = 1000;

/**
 * A backlog the copy would take longer than this to catch up with is not waited for: the query is answered that
 * analytics is catching up (503, Retry-After), so a dashboard says so instead of waiting past its own timeout.
 */
const WAIT_FOR_COPY_AT_MOST_S = 5;

/**
 * The rows a connection's views show: one family's tables, over one workspace's rows, and of them only some key
 * spaces' or namespaces' when `narrowTo` is given.
 */
interface Scope {
  family: FamilyName;
  workspaceId: string;
  narrowTo: readonly string[] | undefined;
}

/** The rows' filter, which every public view (the only tables a checked query may read) applies. */
function scopeFilter({ family, workspaceId, narrowTo }: Scope): string {
  if (!WORKSPACE_ID.test(workspaceId)) throw new Error("not a workspace id");
  // DuckDB views take no parameters: the ids are checked literals.
  const workspace = `workspace_id = '${workspaceId}'`;
  if (narrowTo === undefined) return workspace;
  if (!narrowTo.every((id) => NARROW_ID.test(id))) throw new Error("not an id");
  return narrowTo.length === 0
    ? `${workspace} AND false`
    : `${workspace} AND ${FAMILIES[family].narrowColumn} IN (${narrowTo.map((id) => `'${id}'`).join(", ")})`;
}

function publicViewsSql(scope: Scope): string {
  return FAMILIES[scope.family].views(scopeFilter(scope));
}

/** A checked query as SQL printed from its checked tree; `bounded`: it returns at most the row limit + 1 rows. */
interface CheckedQuery {
  sql: string;
  bounded: boolean;
  /** Set when SQLite's per-hour sums answer it exactly (key-rollup-plan.ts). */
  rollup: RollupPlan | undefined;
}

/** Per-connection macros that shadow the clock functions with one instant (a TEMP macro is found before the global ones). */
function pinnedClockSql(ms: number): string {
  const timestamp = new Date(ms).toISOString().slice(0, 23).replace("T", " ");
  return [
    `CREATE OR REPLACE TEMP MACRO now() AS TIMESTAMP '${timestamp}'`,
    `CREATE OR REPLACE TEMP MACRO now64() AS TIMESTAMP '${timestamp}', (digits) AS TIMESTAMP '${timestamp}'`,
    `CREATE OR REPLACE TEMP MACRO today() AS DATE '${timestamp.slice(0, 10)}'`,
  ].join(";\n");
}

/** The chunks of a result: read in place when DuckDB materialized it, fetched one by one from a stream. */
async function* chunksOf(result: DuckDBResult): AsyncIterable<DuckDBDataChunk> {
  if (result instanceof DuckDBMaterializedResult) {
    for (let index = 0; index < result.chunkCount; index += 1) yield result.getChunk(index);
    return;
  }
  for (;;) {
    const chunk = await result.fetchChunk();
    if (chunk === null || chunk.rowCount === 0) return;
    yield chunk;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// A JSON string, or a number: the numbers of a parse tree, outside its strings.
const JSON_STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
// A literal past 64 bits, as DuckDB writes it: two halves, the number being upper · 2^64 + lower. Named as written.
const HUGE_VALUE = /\{"upper":\s*(-?\d+),\s*"lower":\s*(\d+)\}/g;
// Positions in the text, 2^64 - 1 where unknown: left out of the printed tree (see checkedSql), so never rounded.
const QUERY_LOCATION = /"query_location":\s*\d+/g;

/**
 * The first whole number in a parse tree's JSON that a JavaScript number cannot hold exactly (past 2^53 - 1):
 * the tree is read into JavaScript to be checked and printed back, which would change such a number silently.
 */
function inexactInteger(json: string): string | undefined {
  const tree = json
    .replace(QUERY_LOCATION, "")
    .replace(HUGE_VALUE, (pair, upper: string, lower: string) =>
      Number.isSafeInteger(Number(upper)) && Number.isSafeInteger(Number(lower))
        ? pair
        : String(BigInt(upper) * 2n ** 64n + BigInt(lower)),
    );
  for (const [token] of tree.matchAll(JSON_STRING_OR_NUMBER)) {
    if (!token.startsWith('"') && !/[.eE]/.test(token) && !Number.isSafeInteger(Number(token))) return token;
  }
  return undefined;
}

/** The parse tree of `sql` as DuckDB's `json_serialize_sql` gives it; throws for a number JavaScript would round. */
async function parseTree(connection: DuckDBConnection, sql: string): Promise<unknown> {
  const reader = await connection.runAndReadAll("SELECT json_serialize_sql($sql::VARCHAR)", { sql });
  const text = reader.value(0, 0);
  if (typeof text !== "string") return undefined;
  const inexact = inexactInteger(text);
  if (inexact !== undefined) {
    throw new Error(
      `The number ${inexact} is larger than this server can check exactly (2^53 - 1): write it as text and cast it, as in '${inexact}'::HUGEINT`,
    );
  }
  return JSON.parse(text);
}

export interface QueryEngineParts {
  instance: DuckDBInstance;
  limits: AnalyticsLimits;
  /** The copies the store is caught up by before a DuckDB query, one a family. */
  copies: Record<FamilyName, StoreSync>;
  /** SQLite's per-hour sums by key, which answer the queries key-rollup-plan.ts takes; none: DuckDB answers all. */
  keyRollup: KeyRollup | undefined;
  /** Hears each change of how many queries DuckDB runs. */
  onRunning?: (count: number) => void;
}

/** The analytics queries, run in the analytics thread over the store on `instance`. */
export function createQueryEngine({ instance, limits, copies, keyRollup, onRunning }: QueryEngineParts): QueryEngine {
  const idle = new Map<string, DuckDBConnection[]>();
  let idleCount = 0;
  let closed = false;
  let runningQueries = 0;
  const checkedQueries = new Map<string, QueryOutcome | CheckedQuery>();
  const busy = new Set<DuckDBConnection>();
  const inFlight = new Set<Promise<QueryOutcome>>();

  // Idle connections by scope: each has its views over that scope's rows only.
  const poolOf = (scope: Scope) => `${scope.family}/${scope.workspaceId}/${scope.narrowTo?.join(",") ?? "*"}`;

  async function takeConnection(scope: Scope): Promise<DuckDBConnection> {
    const pooled = idle.get(poolOf(scope))?.pop();
    if (pooled !== undefined) {
      idleCount -= 1;
      return pooled;
    }
    const connection = await instance.connect();
    await connection.run(publicViewsSql(scope));
    return connection;
  }

  function giveBack(pool: string, connection: DuckDBConnection): void {
    if (closed || idleCount >= IDLE_CONNECTIONS) {
      connection.closeSync();
      return;
    }
    const list = idle.get(pool) ?? [];
    list.push(connection);
    idle.set(pool, list);
    idleCount += 1;
  }

  /** Runs `work` on a pooled connection of the scope's, which goes back to the pool unless `work` spoilt it. */
  async function withConnection<T>(
    scope: Scope,
    work: (connection: DuckDBConnection) => Promise<{ value: T; reusable: boolean }>,
  ): Promise<T> {
    const connection = await takeConnection(scope);
    busy.add(connection);
    let reusable = true;
    try {
      const done = await work(connection);
      reusable = done.reusable;
      return done.value;
    } finally {
      busy.delete(connection);
      if (reusable) giveBack(poolOf(scope), connection);
      else connection.closeSync();
    }
  }

  /**
   * The check of a query's text, remembered: it depends on the text, the family and the retention alone, never on the
   * workspace or the data.
   */
  async function check(
    family: FamilyName,
    workspaceId: string,
    sql: string,
    retentionDays: number,
    now: number | undefined,
  ): Promise<QueryOutcome | CheckedQuery> {
    const cacheKey = `${family}\n${retentionDays}\n${sql}`;
    const remembered = checkedQueries.get(cacheKey);
    if (remembered !== undefined) return remembered;
    const checked = await withConnection({ family, workspaceId, narrowTo: undefined }, async (connection) => ({
      value: await checkedSql(connection, FAMILIES[family], sql, retentionDays, now).catch(
        // Parsing and printing fail only on what the parser cannot take (e.g. a tree too deep), or on a number
        // too large to carry exactly.
        (error: unknown): QueryOutcome => ({ kind: "refused", refusal: "query", message: errorMessage(error) }),
      ),
      reusable: true,
    }));
    if (checkedQueries.size >= CHECKED_QUERIES) checkedQueries.clear();
    checkedQueries.set(cacheKey, checked);
    return checked;
  }

  /**
   * The checked query as SQL printed from its checked tree, so what runs is exactly what was checked; a WITH FILL
   * query is checked without its clause, then wrapped to fill (with-fill.ts).
   */
  async function checkedSql(
    connection: DuckDBConnection,
    family: Family,
    written: string,
    retentionDays: number,
    now: number | undefined,
  ): Promise<QueryOutcome | CheckedQuery> {
    // ClickHouse's parametric calls, quantile(0.9)(x), in the argument order DuckDB's grammar parses; a column named
    // as a keyword (`limit`) quoted where DuckDB's grammar would read the keyword.
    const sql = quoteKeywordColumns(rewriteParametricCalls(written));
    const fill = splitWithFill(sql);
    if (fill.kind === "refused") return { kind: "refused", refusal: "query", message: fill.message };
    const checked = await checkedPlainSql(
      connection,
      family,
      fill.kind === "fill" ? fill.query : sql,
      retentionDays,
      now,
    );
    if (fill.kind === "none" || "kind" in checked) return checked;
    return filledQuery(connection, checked, fill.clause, now).catch((error: unknown): QueryOutcome => ({
      kind: "refused",
      refusal: "query",
      message: errorMessage(error),
    }));
  }

  async function printTree(connection: DuckDBConnection, statement: unknown): Promise<string> {
    const tree = JSON.stringify({ error: false, statements: [statement] }, (key, value: unknown) =>
      key === "query_location" ? undefined : value,
    );
    const printed = (await connection.runAndReadAll("SELECT json_deserialize_sql($tree::JSON)", { tree })).value(0, 0);
    if (typeof printed !== "string") throw new Error("The query could not be parsed");
    return printed;
  }

  async function columnsOf(connection: DuckDBConnection, sql: string): Promise<Column[]> {
    const rows = (await connection.runAndReadAll(`DESCRIBE ${sql}`)).getRowsJS();
    return rows.map(([name, type]) => ({
      name: typeof name === "string" ? name : "",
      type: typeof type === "string" ? type : "",
    }));
  }

  /** A checked query (printed) run with a WITH FILL clause: its ORDER BY and LIMIT go around the filled rows. */
  async function filledQuery(
    connection: DuckDBConnection,
    checked: CheckedQuery,
    clause: FillClause,
    now: number | undefined,
  ): Promise<QueryOutcome | CheckedQuery> {
    const statement = await parseTree(connection, checked.sql);
    const node =
      isObject(statement) && Array.isArray(statement.statements) && isObject(statement.statements[0])
        ? statement.statements[0].node
        : undefined;
    if (!isObject(node) || !Array.isArray(node.modifiers)) throw new Error("The query could not be parsed");
    const modifiers: unknown[] = node.modifiers;
    const order = modifiers.find((modifier) => isObject(modifier) && modifier.type === "ORDER_MODIFIER");
    const orders: unknown = isObject(order) ? order.orders : undefined;
    const first: unknown = Array.isArray(orders) ? orders[0] : undefined;
    const expression = isObject(first) ? first.expression : undefined;
    const names: unknown =
      isObject(expression) && expression.class === "COLUMN_REF" ? expression.column_names : undefined;
    const column: unknown = Array.isArray(names) ? names[0] : undefined;
    if (!Array.isArray(names) || names.length !== 1 || typeof column !== "string")
      throw new Error("WITH FILL fills a column of the result named in ORDER BY (e.g. ORDER BY time WITH FILL)");
    const descending = isObject(first) && first.type === "DESCENDING";

    // The query without its ORDER BY and LIMIT gives the rows (DISTINCT stays with them); the outer SELECT orders
    // and limits them with the fill.
    const isOuter = (modifier: unknown) =>
      isObject(modifier) &&
      (modifier.type === "ORDER_MODIFIER" ||
        modifier.type === "LIMIT_MODIFIER" ||
        modifier.type === "LIMIT_PERCENT_MODIFIER");
    node.modifiers = modifiers.filter((modifier) => !isOuter(modifier));
    const dataSql = await printTree(connection, { node, named_param_map: [] });
    const outer = await parseTree(connection, "SELECT * FROM __fill_rows");
    const outerStatement =
      isObject(outer) && Array.isArray(outer.statements) && isObject(outer.statements[0])
        ? outer.statements[0]
        : undefined;
    if (outerStatement === undefined || !isObject(outerStatement.node))
      throw new Error("The query could not be parsed");
    outerStatement.node.modifiers = modifiers.filter(isOuter);
    const outerSql = await printTree(connection, outerStatement);

    // The bounds and step are checked as a query of their own, which may read no table.
    const bounds = checkQuery(await parseTree(connection, boundsQuery(clause)), undefined, now);
    if (!bounds.ok) return { kind: "refused", refusal: bounds.refusal, message: `WITH FILL: ${bounds.message}` };
    const boundsNode = isObject(bounds.statement) ? bounds.statement.node : undefined;
    if (
      !isObject(boundsNode) ||
      !isObject(boundsNode.from_table) ||
      boundsNode.from_table.type !== "EMPTY" ||
      !Array.isArray(boundsNode.select_list) ||
      boundsNode.select_list.length !== 3
    ) {
      throw new Error("WITH FILL's FROM, TO and STEP are each one expression");
    }
    const boundsSql = await printTree(connection, bounds.statement);
    const stepType = (await columnsOf(connection, boundsSql))[2]?.type ?? "NULL";
    const columns = await columnsOf(connection, dataSql);
    const sql = filledSql({
      dataSql,
      columns,
      boundsSql,
      stepType,
      column,
      descending,
      outerSql,
      maxFilledRows: limits.maxRows + 1,
    });
    // Never answered from SQLite's sums, which hold no filled rows; not bounded: streamed and stopped past the limit.
    return { sql, bounded: false, rollup: undefined };
  }

  async function checkedPlainSql(
    connection: DuckDBConnection,
    family: Family,
    sql: string,
    retentionDays: number,
    now: number | undefined,
  ): Promise<QueryOutcome | CheckedQuery> {
    const tables = publicTables(family);
    const checked = checkQuery(await parseTree(connection, sql), retentionDays, now, tables);
    if (!checked.ok) return { kind: "refused", refusal: checked.refusal, message: checked.message };
    // Planned on the tree as checked, before the rewrites below; SQLite's sums hold verifications only.
    const rollup = keyRollup === undefined || family !== VERIFICATIONS ? undefined : planRollupQuery(checked.statement);
    const bounded = boundRows(checked.statement, limits.maxRows + 1);
    try {
      rewriteLongInLists(checked.statement);
    } catch {
      // Too deep to walk: the query runs as written (every rewrite already made is whole).
    }
    // Positions are 2^64 - 1 where unknown, which a JavaScript number cannot hold: they are left out.
    const tree = JSON.stringify({ error: false, statements: [checked.statement] }, (key, value: unknown) =>
      key === "query_location" ? undefined : value,
    );
    const printed = (await connection.runAndReadAll("SELECT json_deserialize_sql($tree::JSON)", { tree })).value(0, 0);
    if (typeof printed !== "string")
      return { kind: "refused", refusal: "query", message: "The query could not be parsed" };
    // Printing must not change the query: the printed text passes the same check.
    const recheck = checkQuery(await parseTree(connection, printed), retentionDays, now, tables);
    if (!recheck.ok) return { kind: "refused", refusal: recheck.refusal, message: recheck.message };
    return { sql: printed, bounded, rollup };
  }

  async function run(
    connection: DuckDBConnection,
    query: CheckedQuery,
    now: number | undefined,
  ): Promise<{ value: QueryOutcome; reusable: boolean }> {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      connection.interrupt();
    }, limits.timeoutMs);
    runningQueries += 1;
    onRunning?.(runningQueries);
    try {
      if (now !== undefined) await connection.run(pinnedClockSql(now));
      const tooManyRows = {
        value: { kind: "limit", limit: "rows", message: `The query returns more than ${limits.maxRows} rows` } as const,
        reusable: false,
      };
      // Not a kept prepared statement: it went on reading the rows of the store as they were when it was planned.
      // A bounded query runs to completion (its whole result at most one row over the limit); any other is streamed
      // and stopped past the limit.
      const result = query.bounded ? await connection.run(query.sql) : await connection.stream(query.sql);
      if (result instanceof DuckDBMaterializedResult && result.rowCount > limits.maxRows) return tooManyRows;
      const keys = result.deduplicatedColumnNames().map((name) => JSON.stringify(name));
      const rows: string[] = [];
      let bytes = 0;
      for await (const chunk of chunksOf(result)) {
        for (const json of rowsJson(chunk, keys)) {
          bytes += json.length + 1;
          rows.push(json);
        }
        if (rows.length > limits.maxRows) return tooManyRows;
        if (bytes > limits.maxResultBytes) {
          return {
            value: { kind: "limit", limit: "memory", message: "The query's result is too large to return" },
            reusable: false,
          };
        }
      }
      return { value: { kind: "rows", json: `[${rows.join(",")}]`, rowCount: rows.length }, reusable: true };
    } catch (error) {
      const message = errorMessage(error);
      if (timedOut) {
        return {
          value: { kind: "limit", limit: "timeout", message: `The query ran longer than ${limits.timeoutMs / 1000} s` },
          reusable: false,
        };
      }
      // DuckDB names the kind of error first ("Out of Memory Error: …").
      if (message.startsWith("Out of Memory Error")) {
        return {
          value: { kind: "limit", limit: "memory", message: "The query needs more memory than its limit" },
          reusable: false,
        };
      }
      return { value: { kind: "refused", refusal: "query", message }, reusable: true };
    } finally {
      runningQueries -= 1;
      onRunning?.(runningQueries);
      clearTimeout(timer);
    }
  }

  /**
   * Waits until the store holds the family's rows up to `upTo`, or says why not: a copy that failed (retried later,
   * not by this query), or one that would take longer than a query should wait.
   */
  async function caughtUp(family: FamilyName, upTo: number): Promise<QueryOutcome | undefined> {
    const sync = copies[family];
    const noun = sync.family.noun;
    const behind = upTo - sync.copiedSeq;
    if (behind <= 0) return undefined;
    const seconds = sync.secondsFor(behind);
    if (seconds > WAIT_FOR_COPY_AT_MOST_S && sync.failure() === undefined) {
      // Nobody waits for this copy (the answer says to ask again): it paces itself by the requests' load, or a
      // dashboard polling during a rebuild would run the whole rebuild at full speed beside verification.
      sync.catchUp(upTo, { background: true }).catch(() => undefined);
      return {
        kind: "unavailable",
        message: `Analytics is catching up: about ${behind.toLocaleString("en")} ${noun} recorded meanwhile are being copied, about ${Math.ceil(seconds)} s more`,
        retryAfterSeconds: Math.min(60, Math.ceil(seconds)),
      };
    }
    try {
      await sync.catchUp(upTo);
      return undefined;
    } catch (error) {
      const failure = sync.failure();
      const retryAfterSeconds =
        failure === undefined ? 5 : Math.max(1, Math.ceil((failure.retryAt - Date.now()) / 1000));
      return {
        kind: "unavailable",
        message: `Analytics could not copy the ${noun} recorded since its last copy (${errorMessage(error)}); it tries again in ${retryAfterSeconds} s`,
        retryAfterSeconds,
      };
    }
  }

  return {
    get runningQueries() {
      return runningQueries;
    },
    query({ family, workspaceId, sql, retentionDays, narrowTo, upTo, now }) {
      if (closed) return Promise.resolve({ kind: "refused", refusal: "query", message: "The server is shutting down" });
      const answer = (async (): Promise<QueryOutcome> => {
        const checked = await check(family, workspaceId, sql, retentionDays, now);
        if ("kind" in checked) return checked;
        // SQLite's sums are read by workspace only: a query narrowed to some key spaces goes to DuckDB's views.
        if (checked.rollup !== undefined && keyRollup !== undefined && narrowTo === undefined) {
          // Undefined when SQLite cannot answer it now (see KeyRollup.answer): DuckDB answers the same query.
          const answer = await keyRollup.answer(workspaceId, checked.rollup, limits, upTo, now);
          if (answer !== undefined) return answer;
        }
        const notYet = await caughtUp(family, upTo);
        if (notYet !== undefined) return notYet;
        return withConnection({ family, workspaceId, narrowTo }, (connection) => run(connection, checked, now));
      })();
      inFlight.add(answer);
      const forget = () => inFlight.delete(answer);
      answer.then(forget, forget);
      return answer;
    },
    async close() {
      closed = true;
      for (const connection of busy) connection.interrupt();
      await Promise.allSettled(inFlight);
      for (const list of idle.values()) for (const connection of list) connection.closeSync();
      idle.clear();
    },
  };
}
