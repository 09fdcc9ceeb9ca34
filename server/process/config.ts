import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_REGION } from "../http/api-env";
import { DEFAULT_DATA_DIR, DEFAULT_DIST_DIR } from "./paths";

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Proxy mode: relay `/v2/*` here instead of answering from a local database. */
  upstream?: URL;
  docsUrl?: string;
  corsOrigins: string[];
  /** Build the dashboard before listening when it is missing or older than its sources. */
  build: boolean;
  distDir: string;
  /** Recorded as the `region` of every verification this server makes. */
  region: string;
  /** Analytics queries running longer are stopped (ms). */
  analyticsTimeoutMs: number;
  /** Analytics queries a workspace may run per hour. */
  analyticsQuota: number;
  /** A client must send its headers within this long (ms), and its whole request within 1.5 times it. */
  clientTimeoutMs: number;
}

export type ParsedServerArgs =
  { kind: "config"; config: ServerConfig } | { kind: "help" } | { kind: "error"; message: string };

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_ANALYTICS_TIMEOUT_SECONDS = 30;
export const DEFAULT_ANALYTICS_QUOTA = 1000;
export const DEFAULT_CLIENT_TIMEOUT_SECONDS = 10;

export const SERVER_USAGE = `Usage: npm start -- [options]

Runs the Keyscope reference API, its error docs and the dashboard.

Options:
  --port PORT            port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host HOST            address to listen on (default ${DEFAULT_HOST})
  --data-dir DIR         where keyscope.sqlite lives (default ${DEFAULT_DATA_DIR})
  --upstream URL         proxy mode: relay /v2/* to URL instead of using a local database
  --docs-url URL         base of error.type addresses (default: the request's origin + /docs)
  --cors-origin ORIGIN   let a page on ORIGIN call the API from a browser (repeatable)
  --no-build             serve dist/ as it is instead of building the dashboard when stale
  --dist-dir DIR         where the built dashboard lives (default: dist/ of the repository)
  --region NAME          the region recorded with each key verification (default ${DEFAULT_REGION})
  --analytics-timeout S  stop an analytics query after S seconds (default ${DEFAULT_ANALYTICS_TIMEOUT_SECONDS})
  --analytics-quota N    analytics queries a workspace may run per hour (default ${DEFAULT_ANALYTICS_QUOTA})
  --client-timeout S     close a connection whose headers take over S seconds, or whose request takes over
                         1.5 S (default ${DEFAULT_CLIENT_TIMEOUT_SECONDS})
  --help                 show this help
`;

/** The flags parseArgs accepts; `SERVER_USAGE` and the README's table describe each (test/tooling/docs-match-source.test.ts). */
export const SERVER_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "data-dir": { type: "string" },
  upstream: { type: "string" },
  "docs-url": { type: "string" },
  "cors-origin": { type: "string", multiple: true },
  "no-build": { type: "boolean" },
  "dist-dir": { type: "string" },
  region: { type: "string" },
  "analytics-timeout": { type: "string" },
  "analytics-quota": { type: "string" },
  "client-timeout": { type: "string" },
  help: { type: "boolean" },
} as const;

class UsageError extends Error {}

function httpUrl(flag: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${flag} must be an http or https URL, got "${value}"`);
  }
  return url;
}

function port(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const number = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 65535))
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${value}"`);
  return number;
}

function positiveNumber(flag: string, value: string | undefined, fallback: number, whole: boolean): number {
  if (value === undefined) return fallback;
  const number = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(number > 0) || (whole && !Number.isInteger(number))) {
    throw new UsageError(`${flag} must be a positive ${whole ? "whole " : ""}number, got "${value}"`);
  }
  return number;
}

function upstream(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  const url = httpUrl("--upstream", value);
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new UsageError(`--upstream must be a plain base URL like https://api.example.com, got "${value}"`);
  }
  return url;
}

function corsOrigin(value: string): string {
  const url = httpUrl("--cors-origin", value);
  if (url.origin !== value) {
    throw new UsageError(
      `--cors-origin must be an origin like http://localhost:5173 (no path or trailing slash), got "${value}"`,
    );
  }
  return value;
}

function region(value: string | undefined): string {
  if (value === undefined) return DEFAULT_REGION;
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(value)) {
    throw new UsageError(`--region must be a name like eu-west-1 (lowercase letters, digits and -), got "${value}"`);
  }
  return value;
}

function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === "") throw new UsageError(`${flag} must not be empty`);
  return value;
}

/** The first sentence of node's parseArgs message, e.g. "Unknown option '--prot'". */
function parseArgsMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split(". ")[0] ?? message;
}

export function parseServerArgs(argv: readonly string[]): ParsedServerArgs {
  try {
    let values;
    try {
      ({ values } = parseArgs({ args: [...argv], options: SERVER_OPTIONS, strict: true, allowPositionals: false }));
    } catch (error) {
      throw new UsageError(parseArgsMessage(error));
    }
    if (values.help === true) return { kind: "help" };
    const docsUrl = values["docs-url"];
    const config: ServerConfig = {
      port: port(values.port),
      host: nonEmpty("--host", values.host) ?? DEFAULT_HOST,
      dataDir: resolve(nonEmpty("--data-dir", values["data-dir"]) ?? DEFAULT_DATA_DIR),
      upstream: upstream(values.upstream),
      docsUrl: docsUrl === undefined ? undefined : httpUrl("--docs-url", docsUrl).href.replace(/\/+$/, ""),
      corsOrigins: (values["cors-origin"] ?? []).map(corsOrigin),
      build: values["no-build"] !== true,
      distDir: resolve(nonEmpty("--dist-dir", values["dist-dir"]) ?? DEFAULT_DIST_DIR),
      region: region(values.region),
      analyticsTimeoutMs:
        positiveNumber("--analytics-timeout", values["analytics-timeout"], DEFAULT_ANALYTICS_TIMEOUT_SECONDS, false) *
        1000,
      analyticsQuota: positiveNumber("--analytics-quota", values["analytics-quota"], DEFAULT_ANALYTICS_QUOTA, true),
      clientTimeoutMs:
        positiveNumber("--client-timeout", values["client-timeout"], DEFAULT_CLIENT_TIMEOUT_SECONDS, false) * 1000,
    };
    return { kind: "config", config };
  } catch (error) {
    if (error instanceof UsageError) return { kind: "error", message: error.message };
    throw error;
  }
}

/** How the upstream is shown: `https://api.example.com`, without the slash URL adds. */
export function displayUrl(url: URL): string {
  return url.href.replace(/\/+$/, "");
}
