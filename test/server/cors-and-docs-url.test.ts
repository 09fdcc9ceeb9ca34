import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { asError, callApi, type ApiTarget } from "./http";
import { startInProcess, type InProcessServer } from "./in-process";

const ALLOWED_ORIGIN = "http://localhost:5173";

function preflight(server: ApiTarget, origin: string): Promise<Response> {
  return server.fetch(`${server.url}/v2/keys.listKeys`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    },
  });
}

describe("with --cors-origin and --docs-url", () => {
  let server: InProcessServer;

  beforeAll(() => {
    server = startInProcess({
      corsOrigins: [ALLOWED_ORIGIN, "https://dash.example.com"],
      docsUrl: "https://docs.example.com/",
    });
  });

  afterAll(() => {
    server.close();
  });

  test("a preflight from an allowed origin is answered with that origin, the headers and POST", async () => {
    const response = await preflight(server, ALLOWED_ORIGIN);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
    expect(response.headers.get("access-control-allow-headers")?.split(/,\s*/)).toEqual([
      "Authorization",
      "Content-Type",
    ]);
    expect(response.headers.get("access-control-allow-methods")).toBe("POST");
    expect(response.headers.get("vary")?.split(/,\s*/)).toContain("Origin");
    expect(response.headers.get("access-control-max-age")).toBe("600");
  });

  test("a request from an allowed origin may read its answer, Retry-After included", async () => {
    const answer = await callApi(server, { headers: { origin: "https://dash.example.com" } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://dash.example.com");
    expect(answer.headers.get("access-control-expose-headers")).toBe("Retry-After");
  });

  test("any other origin gets no CORS headers, preflight or not", async () => {
    const response = await preflight(server, "https://evil.example.com");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-methods")).toBeNull();

    const answer = await callApi(server, { headers: { origin: "https://evil.example.com" } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("error types point at the configured docs url", async () => {
    const envelope = asError(await callApi(server));
    expect(envelope.error.type).toBe("https://docs.example.com/errors/svc/authentication/missing");
  });
});

describe("by default", () => {
  let server: InProcessServer;

  beforeAll(() => {
    server = startInProcess();
  });

  afterAll(() => {
    server.close();
  });

  test("no origin gets CORS headers", async () => {
    const response = await preflight(server, ALLOWED_ORIGIN);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const answer = await callApi(server, { headers: { origin: ALLOWED_ORIGIN } });
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("error types point at the request's own origin + /docs", async () => {
    expect(asError(await callApi(server)).error.type).toBe(`${server.url}/docs/errors/svc/authentication/missing`);
  });
});
