/** What every `/v2/*` handler can rely on: set by the api middleware before any of them runs. */
export interface ApiEnv {
  Variables: {
    requestId: string;
    /** `{docs_url}` for this request: the configured one or the request's own origin + `/docs`. */
    docsUrl: string;
  };
}

/** The app as a whole: outside `/v2/*` (docs, dashboard) there is no request id. */
export interface AppEnv {
  Variables: {
    requestId?: string;
    docsUrl?: string;
  };
}
