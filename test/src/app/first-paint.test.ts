import { afterEach, beforeEach, expect, test } from "vitest";
import { ENVIRONMENTS_ITEM as STORE_ITEM } from "../../../src/features/environments/environment-store";
import { ENVIRONMENTS_ITEM, paintFirstScreen } from "../../../src/app/first-paint";
import type { FirstRequest } from "../../../src/lib/api/first-request";
import { onAPhone } from "../support/viewport";

const NOW = Date.now();
const HOUR = 60 * 60 * 1000;
const ANSWER = {
  meta: { requestId: "req_1" },
  data: {
    keys: [
      { keyId: "key_1", name: "Billing worker", enabled: true, lastUsedAt: NOW - 3 * HOUR, createdAt: NOW - 100 * HOUR },
      { keyId: "key_2", name: "", enabled: false, expires: NOW - HOUR, createdAt: NOW - 100 * HOUR },
      { keyId: "key_3", name: "Search indexer", enabled: true, credits: { remaining: 0 }, createdAt: NOW - 100 * HOUR },
    ],
  },
  pagination: { hasMore: true, cursor: "key_3" },
};
const CONNECTION = { baseUrl: "http://127.0.0.1:8787", apiKey: "ks_root_S3cretK3yValue9876543210", apiId: undefined };

function handoff(): FirstRequest {
  return { firstPaint: "open", take: () => undefined };
}

function answer(body: unknown, status = 200): Promise<Response> {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }));
}

function root(): HTMLElement {
  const element = document.getElementById("root");
  if (element === null) throw new Error("no #root");
  return element;
}

const drawn = () => root().querySelector(":scope > .app[inert]");

beforeEach(() => {
  document.body.innerHTML = '<div id="root"></div>';
  history.replaceState(null, "", "/keys");
});

afterEach(() => {
  document.body.innerHTML = "";
  history.replaceState(null, "", "/");
});

test("the keys page is drawn from the list's first answer, inert, with what the table shows of each key", async () => {
  const started = handoff();
  await paintFirstScreen({ handoff: started, response: answer(ANSWER), connection: CONNECTION, styles: [] });
  expect(started.firstPaint).toBe("drawn");
  const page = drawn();
  expect(page).not.toBeNull();
  expect(page?.querySelector(".app-header__key")?.textContent).toBe("ks_root_S3c…3210");
  expect(page?.querySelector(".keys-page__source")?.textContent).toBe("From POST http://127.0.0.1:8787/v2/keys.listKeys");
  expect(page?.querySelector(".keys-toolbar__count")?.textContent).toBe("3 keys loaded, more available");
  const choices = [...(page?.querySelectorAll(".keys-status-filter__choice") ?? [])].map((choice) => choice.textContent);
  expect(choices).toEqual(["Expired 1", "Disabled 1", "Out of credits 1", "No problem 1"]);
  const rows = [...(page?.querySelectorAll('.keys-table__body [role="row"]') ?? [])].map((row) =>
    [...row.querySelectorAll('[role="cell"]')].map((cell) => cell.textContent?.trim()),
  );
  expect(rows[0]?.slice(0, 4)).toEqual(["Billing worker", "key_1", "Active", expect.stringMatching(/^3 hours ago \(.+\)$/)]);
  expect(rows[1]?.slice(0, 3)).toEqual(["Unnamed", "key_2", "DisabledExpired"]);
  expect(rows[2]?.slice(0, 3)).toEqual(["Search indexer", "key_3", "Out of credits"]);
  expect(page?.querySelector(".keys-list__more button")?.textContent).toBe("Load more");
});

test("nothing is drawn once the app has begun its own first render", async () => {
  const started = handoff();
  started.firstPaint = "closed";
  await paintFirstScreen({ handoff: started, response: answer(ANSWER), connection: CONNECTION, styles: [] });
  expect(root().childElementCount).toBe(0);
  expect(started.firstPaint).toBe("closed");
});

test("nothing is drawn where the app's first render is not the wide keys page, or for an answer it would not list", async () => {
  const cases: [string, () => void, () => Promise<Response>][] = [
    ["home", () => history.replaceState(null, "", "/"), () => answer(ANSWER)],
    ["saved environments", () => localStorage.setItem(ENVIRONMENTS_ITEM, JSON.stringify({ environments: [] })), () => answer(ANSWER)],
    ["an error", () => undefined, () => answer({ meta: { requestId: "req_1" }, error: { title: "Unauthorized" } }, 401)],
    ["not the envelope", () => undefined, () => answer({ keys: [] })],
    ["no keys", () => undefined, () => answer({ ...ANSWER, data: { keys: [] } })],
    ["no answer", () => undefined, () => Promise.reject(new TypeError("Failed to fetch"))],
    // Last: the phone's window stays until the test ends.
    ["a phone", onAPhone, () => answer(ANSWER)],
  ];
  for (const [name, arrange, response] of cases) {
    history.replaceState(null, "", "/keys");
    localStorage.clear();
    arrange();
    const started = handoff();
    await paintFirstScreen({ handoff: started, response: response(), connection: CONNECTION, styles: [] });
    expect({ name, children: root().childElementCount, firstPaint: started.firstPaint }).toEqual({ name, children: 0, firstPaint: "open" });
  }
});

test("the drawing knows the environments' item by the store's own name", () => {
  expect(ENVIRONMENTS_ITEM).toBe(STORE_ITEM);
});
