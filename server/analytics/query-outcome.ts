import type { QueryRefusal } from "./check-query";

/**
 * What an analytics query came to: its rows as JSON, a refusal of the query, a limit it reached, or analytics not
 * able to answer yet (catching up, or its copy failed and waits to be tried again). Made by the engine and by SQLite's
 * per-hour sums alike, read by the route that answers it.
 */
export type QueryOutcome =
  | { kind: "rows"; json: string; rowCount: number }
  | { kind: "refused"; refusal: QueryRefusal; message: string }
  | { kind: "limit"; limit: "timeout" | "memory" | "rows"; message: string }
  | { kind: "unavailable"; message: string; retryAfterSeconds: number };
