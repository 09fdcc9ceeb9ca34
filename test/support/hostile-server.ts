import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { listenOnLoopback } from "./loopback";

/**
 * A broken or hostile API on 127.0.0.1 for the end-to-end tests: it lets the dashboard's origin call it
 * (CORS, as a real API a user points Keyscope at would) and answers each request with whatever the test scripts.
 * Plain node: no test runner is imported here.
 */

export type HostileAnswer =
  /** A status, headers and body as given (content-length is set from the body unless `chunked`). */
  | { kind: "answer"; status: number; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean }
  /** Headers and the start of a body that promises more, then the connection is cut. */
  | { kind: "cut"; status: number; headers?: Record<string, string>; body: string; declaredLength: number }
  /** Nothing at all: the request is read and never answered (until the server stops). */
  | { kind: "hang" };

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HostileServerOptions {
  /** The dashboard's origin, allowed to call this server from the browser. */
  allowOrigin: string;
  /** The answer to each API request (preflights are answered by the server itself). */
  respond: (request: SeenRequest) => HostileAnswer;
}

export interface HostileServer {
  url: string;
  /** Every request but the CORS preflights, in order. */
  seen: SeenRequest[];
  stop(): Promise<void>;
}

export function answer(status: number, body: string | Buffer, headers: Record<string, string> = {}): HostileAnswer {
  return { kind: "answer", status, body, headers: { "content-type": "application/json", ...headers } };
}

export async function startHostileServer(options: HostileServerOptions): Promise<HostileServer> {
  const seen: SeenRequest[] = [];
  const cors = {
    "access-control-allow-origin": options.allowOrigin,
    "access-control-expose-headers": "Retry-After",
    vary: "Origin",
  };
  const server: Server = createServer((incoming, outgoing) => {
    outgoing.on("error", () => undefined);
    if (incoming.method === "OPTIONS") {
      incoming.resume();
      outgoing.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": "Authorization, Content-Type",
        "access-control-max-age": "600",
      });
      outgoing.end();
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = {
        method: incoming.method ?? "GET",
        path: incoming.url ?? "/",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      seen.push(request);
      const scripted = options.respond(request);
      if (scripted.kind === "hang") return;
      if (scripted.kind === "cut") {
        outgoing.writeHead(scripted.status, {
          ...cors,
          ...scripted.headers,
          "content-length": String(scripted.declaredLength),
        });
        outgoing.write(scripted.body, () => outgoing.destroy());
        return;
      }
      const body = scripted.body ?? "";
      const length = scripted.chunked ? {} : { "content-length": String(Buffer.byteLength(body)) };
      outgoing.writeHead(scripted.status, { ...cors, ...scripted.headers, ...length });
      outgoing.end(body);
    });
  });
  return { ...(await listenOnLoopback(server)), seen };
}
