import { parseAccept } from "hono/utils/accept";

/** The codings the build writes beside each dashboard file (tooling/precompress.ts), most compact first. */
export const PRECOMPRESSED_CODINGS = [
  { coding: "br", suffix: ".br" },
  { coding: "gzip", suffix: ".gz" },
] as const;

export type PrecompressedCoding = (typeof PRECOMPRESSED_CODINGS)[number]["coding"];
export type ContentCoding = PrecompressedCoding | "identity";

/** Ties in a client's preference go to the smaller body. */
const TIE_ORDER: readonly ContentCoding[] = ["br", "gzip", "identity"];

/**
 * Our own, not serveStatic's `precompressed` option: that one matches bare names only (`br;q=1` or `*`
 * get no coding) and leaves `Vary` off the uncompressed answer, which a shared cache may then serve to every client.
 * The codings an `Accept-Encoding` value accepts, most preferred first, ending at `identity` when the client takes an
 * uncompressed body (RFC 9110 §12.5.3): q-values, `*` for any coding not named, `q=0` refuses. No header, or an
 * empty one, asks for no coding. `identity` not named is acceptable yet last: a client that lists `gzip` wants it.
 */
export function preferredCodings(acceptEncoding: string | undefined): ContentCoding[] {
  if (acceptEncoding === undefined) return ["identity"];
  const weights = new Map<string, number>();
  for (const { type, q } of parseAccept(acceptEncoding)) weights.set(type.toLowerCase(), q);
  const any = weights.get("*");
  const weightOf = (coding: ContentCoding): number => {
    const named = weights.get(coding);
    if (named !== undefined) return named;
    // Unnamed, identity is acceptable unless `*;q=0` refuses it, and comes after every coding the client named.
    if (coding === "identity") return any === 0 ? 0 : Number.MIN_VALUE;
    return any ?? 0;
  };
  return TIE_ORDER.map((coding) => ({ coding, weight: weightOf(coding) }))
    .filter(({ weight }) => weight > 0)
    .sort((a, b) => b.weight - a.weight || TIE_ORDER.indexOf(a.coding) - TIE_ORDER.indexOf(b.coding))
    .map(({ coding }) => coding);
}
