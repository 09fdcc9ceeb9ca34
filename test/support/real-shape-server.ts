import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { listenOnLoopback } from "./loopback";

/**
 * A stand-in for the real service, answering in its shapes (docs/api.md#how-the-real-service-differs):
 * `POST /v2/apis.listKeys` only, requiring `apiId`; `data` a plain array with `pagination` beside it; errors as
 * `application/problem+json`; a missing header answered 400 invalid_input located in `security`; no CORS headers at
 * all; any other path a plain-text 404. Plain node:http on 127.0.0.1, so tests can reach it through the reference
 * server's proxy mode.
 */

export interface RealShapeKey {
  keyId: string;
  name: string;
  start?: string;
  enabled?: boolean;
  createdAt?: number;
}

export interface RealShapeServerOptions {
  rootKey: string;
  apiId: string;
  keys: RealShapeKey[];
}

export interface RealShapeServer {
  url: string;
  /** Paths of every request, in order. */
  requests: string[];
  stop(): Promise<void>;
}

const DOCS = "https://docs.example.com/errors/unkey";

function requestId(): string {
  return `req_${randomBytes(9).toString("base64url").replace(/[-_]/g, "x")}`;
}

function problem(
  response: ServerResponse,
  status: number,
  title: string,
  detail: string,
  kind: string,
  errors?: { location: string; message: string; fix?: string }[],
): void {
  const body = {
    meta: { requestId: requestId() },
    error: { title, detail, status, type: `${DOCS}/${kind}`, ...(errors ? { errors } : {}) },
  };
  response.writeHead(status, { "content-type": "application/problem+json" });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startRealShapeServer(options: RealShapeServerOptions): Promise<RealShapeServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? "/";
    requests.push(path);
    void readBody(request).then((text) => {
      if (request.method !== "POST" || path !== "/v2/apis.listKeys") {
        response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
        response.end("404 Not Found");
        return;
      }
      const authorization = request.headers.authorization;
      if (authorization === undefined) {
        problem(response, 400, "Bad Request", "The request is invalid", "application/invalid_input", [
          {
            location: "security",
            message: "authorization header is required",
            fix: "Add an Authorization: Bearer <key> header",
          },
        ]);
        return;
      }
      const match = /^Bearer (\S+)$/.exec(authorization);
      if (!match) {
        problem(
          response,
          400,
          "Bad Request",
          "Authorization header must be Bearer <token>",
          "authentication/malformed",
        );
        return;
      }
      if (match[1] !== options.rootKey) {
        problem(response, 401, "Unauthorized", "The provided root key is invalid", "authentication/key_not_found");
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      const apiId = typeof body === "object" && body !== null && "apiId" in body ? body.apiId : undefined;
      if (typeof apiId !== "string" || apiId === "") {
        problem(response, 400, "Bad Request", "The request is invalid", "application/invalid_input", [
          { location: "body.apiId", message: "apiId is required" },
        ]);
        return;
      }
      if (apiId !== options.apiId) {
        problem(
          response,
          404,
          "Not Found",
          "The requested API does not exist or you do not have access to it",
          "data/api_not_found",
        );
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ meta: { requestId: requestId() }, data: options.keys, pagination: { hasMore: false } }),
      );
    });
  });
  return { ...(await listenOnLoopback(server)), requests };
}
