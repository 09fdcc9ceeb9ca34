/**
 * The permission query of `keys.verifyKey` ("documents.read AND (users.view OR users.admin)"), parsed into a
 * tree and checked against a key's permissions. Hand-written: the grammar is three rules and no parser library
 * in the project covers it; a recursive descent over a token list stays short and bounded.
 *
 *   query  := or
 *   or     := and ("OR" and)*
 *   and    := factor ("AND" factor)*
 *   factor := PERMISSION | "(" or ")"
 */

export type PermissionQuery =
  | { kind: "permission"; name: string }
  | { kind: "and" | "or"; operands: PermissionQuery[] };

export type ParsedPermissionQuery = { ok: true; query: PermissionQuery } | { ok: false; message: string };

export const PERMISSION_QUERY_MAX_LENGTH = 1000;
/** Nesting deeper than this is refused: a query of a thousand "(" must not exhaust the stack. */
const MAX_DEPTH = 32;
const PERMISSION_NAME = /^[A-Za-z0-9_.:*-]+$/;

/** A key permission's name as a query may name it, e.g. `documents.read`. */
export function isPermissionName(value: string): boolean {
  return PERMISSION_NAME.test(value);
}
const TOKEN = /\s*(\(|\)|[^\s()]+)/y;

type Token = { kind: "open" } | { kind: "close" } | { kind: "and" } | { kind: "or" } | { kind: "name"; text: string };

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  for (;;) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (match === null) {
      if (text.slice(start).trim() !== "") return `unexpected text at position ${start + 1}`;
      return tokens;
    }
    const word = match[1] ?? "";
    const upper = word.toUpperCase();
    if (word === "(") tokens.push({ kind: "open" });
    else if (word === ")") tokens.push({ kind: "close" });
    else if (upper === "AND") tokens.push({ kind: "and" });
    else if (upper === "OR") tokens.push({ kind: "or" });
    else if (PERMISSION_NAME.test(word)) tokens.push({ kind: "name", text: word });
    else return `"${word}" is not a permission name (letters, digits and _ . : * - only)`;
  }
}

class QueryError extends Error {}

export function parsePermissionQuery(text: string): ParsedPermissionQuery {
  if (text.length > PERMISSION_QUERY_MAX_LENGTH) {
    return { ok: false, message: `the query is longer than ${PERMISSION_QUERY_MAX_LENGTH} characters` };
  }
  const tokenized = tokenize(text);
  if (typeof tokenized === "string") return { ok: false, message: tokenized };
  const tokens: readonly Token[] = tokenized;
  if (tokens.length === 0) return { ok: false, message: "the query is empty" };
  let position = 0;

  function describe(token: Token | undefined): string {
    if (token === undefined) return "the end of the query";
    if (token.kind === "name") return `"${token.text}"`;
    return { open: '"("', close: '")"', and: "AND", or: "OR" }[token.kind];
  }

  function parseOr(depth: number): PermissionQuery {
    const operands = [parseAnd(depth)];
    while (tokens[position]?.kind === "or") {
      position += 1;
      operands.push(parseAnd(depth));
    }
    return operands.length === 1 && operands[0] !== undefined ? operands[0] : { kind: "or", operands };
  }

  function parseAnd(depth: number): PermissionQuery {
    const operands = [parseFactor(depth)];
    while (tokens[position]?.kind === "and") {
      position += 1;
      operands.push(parseFactor(depth));
    }
    return operands.length === 1 && operands[0] !== undefined ? operands[0] : { kind: "and", operands };
  }

  function parseFactor(depth: number): PermissionQuery {
    const token = tokens[position];
    if (token?.kind === "name") {
      position += 1;
      return { kind: "permission", name: token.text };
    }
    if (token?.kind === "open") {
      if (depth >= MAX_DEPTH) throw new QueryError(`parentheses nest deeper than ${MAX_DEPTH}`);
      position += 1;
      const inner = parseOr(depth + 1);
      if (tokens[position]?.kind !== "close") throw new QueryError(`expected ")" but found ${describe(tokens[position])}`);
      position += 1;
      return inner;
    }
    throw new QueryError(`expected a permission or "(" but found ${describe(token)}`);
  }

  try {
    const query = parseOr(0);
    if (position !== tokens.length) return { ok: false, message: `unexpected ${describe(tokens[position])}` };
    return { ok: true, query };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, message: error.message };
    throw error;
  }
}

export function satisfies(query: PermissionQuery, granted: ReadonlySet<string>): boolean {
  switch (query.kind) {
    case "permission":
      return granted.has(query.name);
    case "and":
      return query.operands.every((operand) => satisfies(operand, granted));
    case "or":
      return query.operands.some((operand) => satisfies(operand, granted));
  }
}
