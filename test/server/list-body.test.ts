import { Hono } from "hono";
import * as v from "valibot";
import { expect, test } from "vitest";
import type { ApiEnv } from "../../server/http/api-env";
import { ApiRefusal } from "../../server/http/api-refusal";
import { jsonBody, type BodySpec } from "../../server/http/json-body";

/**
 * A body that is a list (ratelimit.multiLimit's), declared as an array schema: read and validated as an object body
 * is, with each problem located at its item and the item's fields' fixes.
 */

const ITEM = v.strictObject({ name: v.string("name must be a string") });
const LIST: BodySpec<v.GenericSchema> = {
  schema: v.pipe(v.array(ITEM), v.minLength(1, "at least one item")),
  fixes: { name: "Pass a name." },
  example: '[{"name": "a"}]',
};

const app = new Hono<ApiEnv>()
  .post("/list", ...jsonBody(LIST), (c) => c.json(c.req.valid("json")))
  // The refusal's problems, as the app's onError writes them into the error envelope.
  .onError((error, c) =>
    error instanceof ApiRefusal ? c.json({ error: { errors: error.errors } }, 400) : c.text("unexpected", 500),
  );

async function post(body: string): Promise<{ status: number; json: unknown }> {
  const response = await app.request("/list", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, json: await response.json() };
}

test("a list body is handed on as the array it is", async () => {
  expect(await post('[{"name":"a"},{"name":"b"}]')).toEqual({ status: 200, json: [{ name: "a" }, { name: "b" }] });
});

test.each([
  ["an object", '{"name":"a"}', { location: "body", message: "The body must be a JSON array" }],
  ["an empty list", "[]", { location: "body", message: "at least one item" }],
  ["an item's wrong type", '[{"name":1}]', { location: "body.0.name", message: "name must be a string" }],
  ["an item's unknown field", '[{"name":"a","__proto__":1}]', { location: "body.0.__proto__" }],
])("%s is the real service's 400, located at the item", async (_, body, problem: Record<string, string>) => {
  const answer = await post(body);
  expect(answer.status).toBe(400);
  expect(answer.json).toMatchObject({ error: { errors: [problem] } });
});

test("an item's unknown field names the item's fields as the fix", async () => {
  const answer = await post('[{"name":"a","extra":1}]');
  expect(answer.json).toMatchObject({
    error: {
      errors: [
        { location: "body.0.extra", message: 'Unknown field "extra"', fix: "Remove it: each item accepts only name." },
      ],
    },
  });
});
