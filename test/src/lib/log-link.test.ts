import { describe, expect, test } from "vitest";
import { readLogView } from "@/features/logs/log-view";
import { logLinkSearch } from "@/lib/log-link";

describe("a link to the Logs page, built where the Logs page is not imported", () => {
  test("the Logs page reads back exactly the view the link asks for", () => {
    const search = logLinkSearch({
      range: "7d",
      outcomes: ["RATE_LIMITED", "USAGE_EXCEEDED"],
      keyIds: ["key_3nB"],
      externalId: "user_42",
    });
    const { view, dropped } = readLogView(new URLSearchParams(search));
    expect(dropped).toEqual([]);
    expect(view).toMatchObject({
      range: { kind: "preset", preset: "7d" },
      outcomes: ["RATE_LIMITED", "USAGE_EXCEEDED"],
      keyIds: ["key_3nB"],
      externalId: "user_42",
    });
  });

  test("an external id with characters a query escapes arrives as it was", () => {
    const { view } = readLogView(new URLSearchParams(logLinkSearch({ externalId: "team&co=1 #a" })));
    expect(view.externalId).toBe("team&co=1 #a");
  });

  test("nothing asked is the Logs page's default view", () => {
    expect(logLinkSearch({})).toBe("");
  });
});
