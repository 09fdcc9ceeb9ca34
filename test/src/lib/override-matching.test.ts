import { describe, expect, test } from "vitest";
import { overrideMatches, overrideSpecificity } from "@/lib/contract";

describe("which identifiers an override applies to (the contract's rule, the server's and the dashboard's)", () => {
  test("an identifier without * applies to itself alone", () => {
    expect(overrideMatches("team_acme", "team_acme")).toBe(true);
    expect(overrideMatches("team_acme2", "team_acme")).toBe(false);
    expect(overrideMatches("Team_acme", "team_acme")).toBe(false);
  });

  test("* stands for any run of characters, an empty one too, anywhere in the identifier", () => {
    expect(overrideMatches("team_acme", "team_*")).toBe(true);
    expect(overrideMatches("team_", "team_*")).toBe(true);
    expect(overrideMatches("xteam_acme", "team_*")).toBe(false);
    expect(overrideMatches("ops_admin", "*_admin")).toBe(true);
    expect(overrideMatches("a-suspicious-ip", "*suspicious*")).toBe(true);
    expect(overrideMatches("eu.user.42.mobile", "eu.*.mobile")).toBe(true);
    expect(overrideMatches("anything at all", "*")).toBe(true);
  });

  test("the characters a regular expression gives meaning to stand for themselves", () => {
    expect(overrideMatches("10.0.0.1", "10.0.0.*")).toBe(true);
    expect(overrideMatches("10x0x0x1", "10.0.0.*")).toBe(false);
    expect(overrideMatches("a+b(c)", "a+b(*)")).toBe(true);
    expect(overrideMatches("aab(c)", "a+b(*)")).toBe(false);
    expect(overrideMatches("path/[id]", "path/[*]")).toBe(true);
  });

  test("a line break is not matched by *, as the real service's Go regexp reads it", () => {
    expect(overrideMatches("team_a\nb", "team_*")).toBe(false);
  });

  test("an exact identifier is more specific than every pattern; a pattern by its characters besides *", () => {
    expect(overrideSpecificity("team_acme")).toBeGreaterThan(overrideSpecificity("team_acm*"));
    expect(overrideSpecificity("team_*")).toBe(5);
    expect(overrideSpecificity("*")).toBe(0);
    expect(overrideSpecificity("te*m_*")).toBe(overrideSpecificity("team*"));
  });
});
