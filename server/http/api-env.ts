import type { KeyStore, RootKeyRecord } from "../db/key-store";
import type { RateLimiter } from "../auth/rate-limit";
import type { KeyRateLimiter } from "../keys/key-rate-limiter";

/** What every `/v2/*` handler can rely on: set by the api middleware before any of them runs. */
export interface ApiEnv {
  Variables: {
    requestId: string;
    /** `{docs_url}` for this request: the configured one or the request's own origin + `/docs`. */
    docsUrl: string;
  };
}

/**
 * What an operation's handler runs with once its caller is known: the root key, set by the root-key middleware
 * (auth/root-key.ts) as hono/bearer-auth hands on who is calling.
 */
export interface OperationEnv {
  Variables: ApiEnv["Variables"] & { rootKey: RootKeyRecord };
}

/** The app as a whole: outside `/v2/*` (docs, dashboard) there is no request id. */
export interface AppEnv {
  Variables: {
    requestId?: string;
    docsUrl?: string;
  };
}

/** What the operations are given by the app that serves them (process/start.ts, or a test in-process). */
export interface ApiDependencies {
  store: KeyStore;
  /** The root keys' own rate limits. */
  rateLimiter: RateLimiter;
  /** The verified keys' rate limits; a fresh one per app when not given. */
  keyRateLimiter?: KeyRateLimiter;
  /** Recorded as each verification's `region` (default {@link DEFAULT_REGION}). */
  region?: string;
  /** When a verification happens (default the wall clock): tests move it, as the real service's route tests move theirs. */
  clock?: () => number;
}

export const DEFAULT_REGION = "local";
