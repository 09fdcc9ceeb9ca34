import { describe, expect, test } from "vitest";
import { classify, scenariosOf, slotsOf } from "../../bench/real-route-count";

// A real route test file in small: a Test function without t.Run, a group, and t.Runs in loops over a map (whose
// values hold keys of their own) and over a table.
const GO = `package handler_test

func TestPlain(t *testing.T) {
	require.Equal(t, 1, 1) // t.Run("not a call")
}

func TestBadRequest(t *testing.T) {
	t.Run("a group", func(t *testing.T) {
		t.Run("first", func(t *testing.T) {})
		t.Run("second", func(t *testing.T) {})
	})
	for name, req := range map[string]map[string]any{
		"missing id":   {"permissions": []string{}},
		"invalid slug": {"id": "x", "permissions": []string{""}},
	} {
		t.Run(name, func(t *testing.T) { _ = req })
	}
	for _, tc := range []struct {
		name string
	}{
		{name: "case one"},
		{name: "case two"},
	} {
		t.Run(tc.name, func(t *testing.T) {})
	}
}
`;

describe("the real route count", () => {
  const scenarios = scenariosOf("v2_x", "400_test.go", GO);

  test("a Test function without t.Run, each t.Run, and a t.Run in a loop once, with its cases", () => {
    expect(scenarios.map((s) => [s.name, s.children.map((c) => c.name), s.cases])).toEqual([
      ["TestPlain", [], []],
      ["a group", ["first", "second"], []],
      ["name", [], ["missing id", "invalid slug"]],
      ["tc.name", [], ["case one", "case two"]],
    ]);
  });

  test("a loop counts as replayed only with every case; a group only with every child", () => {
    const slots = slotsOf(
      [
        "TestPlain: what it checks",
        "a group: first / second",
        "case one",
        "x (served differently: the seed's 401)",
      ].map((title) => ({
        file: "x.test.ts",
        name: `400 > ${title}`,
      })),
    );
    const columns = classify({ dir: "v2_x", file: "x.test.ts" }, scenarios, slots);
    expect(scenarios.map((s) => columns.get(s))).toEqual([
      "real answer",
      "real answer",
      "not replayed",
      "not replayed",
    ]);
  });
});
