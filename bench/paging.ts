import { performance } from "node:perf_hooks";
import { allKeyIds, parsePage, postListKeys } from "./lib/keyscope-api";
import { makeRow, type BenchRow } from "./lib/results";
import { median, quantile, round } from "./lib/stats";
import { base58 } from "./lib/base58";

export interface PagingBenchOptions {
  url: string;
  rootKey: string;
  /** Timed requests per page position. */
  requests: number;
  log: (line: string) => void;
}

/**
 * The first page against the last, each request uncached: a cursor the server has never seen that still
 * names the same page. "key_11111…" sorts before every key id; the id before the last page plus a suffix sorts
 * after it and before the next one. Every answer is checked to be that page.
 */
export async function benchDeepPaging(options: PagingBenchOptions): Promise<BenchRow[]> {
  const { url, rootKey, log } = options;
  const ids = await allKeyIds(url, rootKey);
  const lastPageStart = ids.length - 100;
  const beforeLastPage = ids[lastPageStart - 1];
  const firstId = ids[0];
  const lastPageFirstId = ids[lastPageStart];
  if (beforeLastPage === undefined || firstId === undefined || lastPageFirstId === undefined)
    throw new Error("too few keys to page");
  log(`paging: ${ids.length} keys`);

  async function timePage(cursor: string, expectedFirstId: string): Promise<number> {
    const startedAt = performance.now();
    const answer = await postListKeys(url, rootKey, { limit: 100, cursor });
    const elapsed = performance.now() - startedAt;
    const page = answer.status === 200 ? parsePage(answer.body) : undefined;
    if (page?.data.keys[0]?.keyId !== expectedFirstId || page.data.keys.length !== 100) {
      throw new Error(`cursor ${cursor} did not give the expected page (status ${answer.status})`);
    }
    return elapsed;
  }

  const first: number[] = [];
  const last: number[] = [];
  // Warm-up requests (JIT, statements, the OS page cache), not counted.
  for (let index = 0; index < 20; index += 1) {
    await timePage(`key_11111${base58(1_000_000 + index)}`, firstId);
    await timePage(`${beforeLastPage}${base58(1_000_000 + index)}`, lastPageFirstId);
  }
  for (let index = 0; index < options.requests; index += 1) {
    first.push(await timePage(`key_11111${base58(index)}`, firstId));
    last.push(await timePage(`${beforeLastPage}${base58(index)}`, lastPageFirstId));
  }
  return [
    makeRow({
      id: "deep-paging",
      label: `Last page of ${ids.length.toLocaleString("en")} keys vs the first (uncached)`,
      unit: "ms",
      ours: last,
      floor: first,
      goal: { kind: "ratio-at-most", target: 1.2 },
      paired: true,
      method: `${options.requests} requests each, alternating, every cursor distinct (no page-cache hits), median latency seen by a keep-alive client, ratio: median of each pair's last/first; limit 100`,
      details: {
        lastP90Ms: round(quantile(last, 0.9), 3),
        firstP90Ms: round(quantile(first, 0.9), 3),
        lastMedianMs: round(median(last), 3),
        firstMedianMs: round(median(first), 3),
      },
    }),
  ];
}
