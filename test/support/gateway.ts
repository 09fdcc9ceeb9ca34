import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import { listenOnLoopback } from "./loopback";

/** A canned answer the gateway gives instead of relaying. */
export interface CannedResponse {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export interface GatewayOptions {
  /** Where requests are relayed, e.g. a started reference server's url. */
  target: string;
  /** Drop the Authorization header on the way, as a misconfigured proxy does. */
  stripAuthorization?: boolean;
  /** Answer some requests itself (return undefined to relay). */
  respond?: (method: string, path: string) => CannedResponse | undefined;
}

export interface Gateway {
  url: string;
  /** The Authorization headers that reached the gateway, in order (undefined when absent). */
  seenAuthorization: (string | undefined)[];
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
]);

function forwardable(headers: IncomingHttpHeaders, strip: string[]): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !strip.includes(name)));
}

/**
 * A reverse proxy on 127.0.0.1 in front of a Keyscope server: the page and the API are both reached through it,
 * so the dashboard talks to it as its own origin, the way a user's gateway sits in front of a real deployment.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const target = new URL(options.target);
  const seenAuthorization: (string | undefined)[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? "/";
    if (path.startsWith("/v2/")) seenAuthorization.push(incoming.headers.authorization);
    const canned = options.respond?.(incoming.method ?? "GET", path);
    if (canned) {
      incoming.resume();
      outgoing.writeHead(canned.status, canned.headers);
      outgoing.end(canned.body);
      return;
    }
    // The Host header passes through, as a gateway that keeps it does: the API names its docs after it.
    const strip = options.stripAuthorization && path.startsWith("/v2/") ? ["authorization"] : [];
    const relay = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path,
        headers: forwardable(incoming.headers, strip),
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, forwardable(answer.headers, []));
        answer.pipe(outgoing);
      },
    );
    relay.on("error", () => {
      outgoing.writeHead(502, { "content-type": "text/html" });
      outgoing.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
    });
    incoming.pipe(relay);
  });
  return { ...(await listenOnLoopback(server)), seenAuthorization };
}
