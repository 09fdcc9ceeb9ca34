export interface AnalyticsLimits {
  /** A query running longer is interrupted. */
  timeoutMs: number;
  /** DuckDB's memory_limit, in bytes: its queries and the pages of the store it keeps in memory, together. */
  memoryLimitBytes: number;
  /** More result rows than this: the query is refused. */
  maxRows: number;
  /**
   * More result JSON than this: refused as over the memory limit. The process holds a result whole, twice for a while
   * (made in the analytics thread, copied to the request's), beside DuckDB's memory.
   */
  maxResultBytes: number;
  threads: number;
}

export const DEFAULT_ANALYTICS_LIMITS: AnalyticsLimits = {
  timeoutMs: 30_000,
  // Not the real service's 1 GB a query: with the server's own memory, the whole process stays within 1 GiB however
  // much history the store holds (its pages beyond this are read from the file as needed); with 512 MiB, rebuilding
  // ten million rows peaked at 1,055 MiB.
  memoryLimitBytes: 384 * 1024 ** 2,
  maxRows: 10_000_000,
  maxResultBytes: 64 * 1024 ** 2,
  // One: on a two-core host, two DuckDB threads catching up before each query took verifyKey's core (#28 item 9:
  // verifyKey with 5 dashboard queries a second at 0.40× of alone with two threads, 0.69-0.78× with one, queries as fast).
  threads: 1,
};
