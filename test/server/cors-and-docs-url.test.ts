import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type StartedServer } from "../support/server-process";
import { asError, callApi } from "./http";

const ALLOWED_ORIGIN = "http://localhost:5173";

function preflight(url: string, origin: string): Promise<Response> {
  return fetch(`${url}/v2/keys.listKeys`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
  });
}

describe("with --cors-origin and --docs-url", () => {
  let server: StartedServer;

  beforeAll(async () => {
    server = await startServer({
      args: ["--cors-origin", ALLOWED_ORIGIN, "--cors-origin", "https://dash.example.com", "--docs-url", "https://docs.example.com/"],
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  test("a preflight from an allowed origin is answered with that origin, the headers and POST", async () => {
    const response = await preflight(server.url, ALLOWED_ORIGIN);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
    expect(response.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type");
    expect(response.headers.get("access-control-allow-methods")).toBe("POST");
    expect(response.headers.get("vary")).toBe("Origin");
  });

  test("a request from an allowed origin may read its answer, Retry-After included", async () => {
    const answer = await callApi(server.url, { headers: { origin: "https://dash.example.com" } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://dash.example.com");
    expect(answer.headers.get("access-control-expose-headers")).toBe("Retry-After");
  });

  test("any other origin gets no CORS headers, preflight or not", async () => {
    const response = await preflight(server.url, "https://evil.example.com");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-methods")).toBeNull();

    const answer = await callApi(server.url, { headers: { origin: "https://evil.example.com" } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("error types point at the configured docs url", async () => {
    const envelope = asError(await callApi(server.url));
    expect(envelope.error.type).toBe("https://docs.example.com/errors/svc/authentication/missing");
  });
});

describe("by default", () => {
  let server: StartedServer;

  beforeAll(async () => {
    server = await startServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  test("no origin gets CORS headers", async () => {
    const response = await preflight(server.url, ALLOWED_ORIGIN);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const answer = await callApi(server.url, { headers: { origin: ALLOWED_ORIGIN } });
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("error types point at the request's own origin + /docs", async () => {
    expect(asError(await callApi(server.url)).error.type).toBe(`${server.url}/docs/errors/svc/authentication/missing`);
  });
});
