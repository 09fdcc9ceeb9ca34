import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parsePermissionQuery, satisfies, type PermissionQuery } from "../../../server/keys/permission-query";

function parsed(text: string): PermissionQuery {
  const result = parsePermissionQuery(text);
  if (!result.ok) throw new Error(`"${text}" did not parse: ${result.message}`);
  return result.query;
}

function allows(text: string, granted: readonly string[]): boolean {
  return satisfies(parsed(text), new Set(granted));
}

describe("the verifyKey permission query", () => {
  test("a single permission is held or not", () => {
    expect(allows("documents.read", ["documents.read"])).toBe(true);
    expect(allows("documents.read", ["documents.write"])).toBe(false);
  });

  test("AND binds tighter than OR, and parentheses group", () => {
    expect(parsed("a OR b AND c")).toEqual({
      kind: "or",
      operands: [
        { kind: "permission", name: "a" },
        {
          kind: "and",
          operands: [
            { kind: "permission", name: "b" },
            { kind: "permission", name: "c" },
          ],
        },
      ],
    });
    expect(allows("a OR b AND c", ["a"])).toBe(true);
    expect(allows("(a OR b) AND c", ["a"])).toBe(false);
    expect(allows("a AND (b OR c)", ["a", "c"])).toBe(true);
  });

  test("operators in any case, names with the real service's characters", () => {
    expect(allows("api.read:all and (users-view or x_y.*)", ["api.read:all", "x_y.*"])).toBe(true);
  });

  test.each([
    ["", "Unexpected end of input. Please provide a valid permission query."],
    // The real service's own cases (svc/api/routes/v2_keys_verify_key/400_test.go), positions from 0.
    ["permission_1 AND", "Unexpected end of query. Expected a permission identifier or opening parenthesis."],
    ["(permission_1 AND permission_2", "Missing closing parenthesis ')' at position 30."],
    ["permission_1 AND ()", "Empty parentheses found at position 18."],
    [
      "AND permission_1",
      "Unexpected token 'AND' at position 0. Expected a permission identifier or opening parenthesis.",
    ],
    ["a b", "Unexpected token 'b' at position 2. The query appears to have extra content"],
    ["(a))", "Unexpected token ')' at position 3."],
    ["a AND $b", "Invalid character '$' found in query at position 6."],
    ["(".repeat(40) + "a" + ")".repeat(40), "nest deeper"],
    ["a OR ".repeat(300) + "a", "longer than 1000"],
  ])("%j is refused: %s", (text, message) => {
    const result = parsePermissionQuery(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });

  test("any generated query parses back into the same tree and never throws", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_.:-]{0,8}$/).filter((text) => !/^(and|or)$/i.test(text));
    const { tree } = fc.letrec<{ tree: PermissionQuery }>((self) => ({
      tree: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        name.map((text): PermissionQuery => ({ kind: "permission", name: text })),
        fc.record({
          kind: fc.constantFrom("and" as const, "or" as const),
          operands: fc.array(self("tree"), { minLength: 2, maxLength: 3 }),
        }),
      ),
    }));
    const print = (query: PermissionQuery): string =>
      query.kind === "permission" ? query.name : `(${query.operands.map(print).join(` ${query.kind.toUpperCase()} `)})`;
    const flatten = (query: PermissionQuery): PermissionQuery =>
      query.kind === "permission"
        ? query
        : {
            kind: query.kind,
            operands: query.operands.flatMap((operand) => {
              const flat = flatten(operand);
              return flat.kind === query.kind ? flat.operands : [flat];
            }),
          };
    fc.assert(
      fc.property(tree, (query) => {
        const result = parsePermissionQuery(print(query));
        if (print(query).length > 1000) return;
        expect(result.ok && flatten(result.query)).toEqual(flatten(query));
      }),
    );
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (text) => void parsePermissionQuery(text)));
  });
});
