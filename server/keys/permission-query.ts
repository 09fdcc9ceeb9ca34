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
  { kind: "permission"; name: string } | { kind: "and" | "or"; operands: PermissionQuery[] };

export type ParsedPermissionQuery = { ok: true; query: PermissionQuery } | { ok: false; message: string };

export const PERMISSION_QUERY_MAX_LENGTH = 1000;
/** Nesting deeper than this is refused: a query of a thousand "(" must not exhaust the stack. */
const MAX_DEPTH = 32;
const PERMISSION_NAME = /^[A-Za-z0-9_.:*/-]+$/;

/** A key permission's name as a query may name it, e.g. `documents.read`. */
export function isPermissionName(value: string): boolean {
  return PERMISSION_NAME.test(value);
}
const TOKEN = /\s*(\(|\)|[^\s()]+)/y;
const INVALID_CHARACTER = /[^A-Za-z0-9_.:*/\-()\s]/;

/** `at` is the token's 0-based offset in the query, as the real service's parser counts positions. */
type Token = { kind: "open" | "close" | "and" | "or" | "name" | "end"; text: string; at: number };

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  for (;;) {
    const match = TOKEN.exec(text);
    if (match === null) {
      tokens.push({ kind: "end", text: "", at: text.length });
      return tokens;
    }
    const word = match[1] ?? "";
    const at = match.index + match[0].length - word.length;
    const invalid = INVALID_CHARACTER.exec(word);
    if (invalid !== null) {
      return `Invalid character '${invalid[0]}' found in query at position ${at + invalid.index}. Only letters, numbers, dots, underscores, hyphens, slashes, colons, asterisks, and parentheses are allowed.`;
    }
    const upper = word.toUpperCase();
    const kind =
      word === "(" ? "open" : word === ")" ? "close" : upper === "AND" ? "and" : upper === "OR" ? "or" : "name";
    tokens.push({ kind, text: word, at });
  }
}

class QueryError extends Error {}

/** Parses a permission query; a refusal's message is the real service's, naming the position and the reason. */
export function parsePermissionQuery(text: string): ParsedPermissionQuery {
  if (text.length > PERMISSION_QUERY_MAX_LENGTH) {
    return { ok: false, message: `The query is longer than ${PERMISSION_QUERY_MAX_LENGTH} characters.` };
  }
  const tokenized = tokenize(text);
  if (typeof tokenized === "string") return { ok: false, message: tokenized };
  const tokens: readonly Token[] = tokenized;
  let position = 0;
  // The tokens always end with an "end" token, which nothing consumes.
  const current = (): Token => tokens[position] ?? { kind: "end", text: "", at: text.length };
  if (current().kind === "end")
    return { ok: false, message: "Unexpected end of input. Please provide a valid permission query." };

  function parseOr(depth: number): PermissionQuery {
    const operands = [parseAnd(depth)];
    while (current().kind === "or") {
      position += 1;
      operands.push(parseAnd(depth));
    }
    return operands.length === 1 && operands[0] !== undefined ? operands[0] : { kind: "or", operands };
  }

  function parseAnd(depth: number): PermissionQuery {
    const operands = [parseFactor(depth)];
    while (current().kind === "and") {
      position += 1;
      operands.push(parseFactor(depth));
    }
    return operands.length === 1 && operands[0] !== undefined ? operands[0] : { kind: "and", operands };
  }

  function parseFactor(depth: number): PermissionQuery {
    const token = current();
    if (token.kind === "name") {
      position += 1;
      return { kind: "permission", name: token.text };
    }
    if (token.kind === "open") {
      if (depth >= MAX_DEPTH)
        throw new QueryError(`Parentheses nest deeper than ${MAX_DEPTH} at position ${token.at}.`);
      position += 1;
      const first = current();
      if (first.kind === "close") {
        throw new QueryError(
          `Empty parentheses found at position ${first.at}. Parentheses must contain at least one permission or expression.`,
        );
      }
      const inner = parseOr(depth + 1);
      const closing = current();
      if (closing.kind !== "close") {
        throw new QueryError(
          `Missing closing parenthesis ')' at position ${closing.at}. Every opening parenthesis must have a matching closing parenthesis.`,
        );
      }
      position += 1;
      return inner;
    }
    if (token.kind === "end")
      throw new QueryError("Unexpected end of query. Expected a permission identifier or opening parenthesis.");
    throw new QueryError(
      `Unexpected token '${token.text}' at position ${token.at}. Expected a permission identifier or opening parenthesis.`,
    );
  }

  try {
    const query = parseOr(0);
    const rest = current();
    if (rest.kind !== "end") {
      return {
        ok: false,
        message: `Unexpected token '${rest.text}' at position ${rest.at}. The query appears to have extra content after a valid expression.`,
      };
    }
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
