import type { Context } from "hono";

/** The client closed its connection before its whole body arrived (Node's "aborted", ECONNRESET). */
export const BODY_CUT_OFF = "the connection closed before the whole body arrived";

function isCutOff(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ECONNRESET";
}

const decoder = new TextDecoder();

export type BodyText =
  | { kind: "text"; text: string; /** Read through Hono, which keeps it for c.req.json(). */ kept: boolean }
  | { kind: "too_large" }
  | { kind: "cut_off" };

// Hand-written rather than hono/body-limit: that middleware answers a bare 413 of its own, and the proxy needs the
// bytes themselves.

/**
 * Reads at most `limitBytes` of a request's body as text. One whose declared length is in bounds is read through
 * Hono (c.req.text()), which keeps the text for whatever reads the body next; the HTTP parser holds a body to its
 * declared length (see readBoundedBytes).
 */
export async function readBodyText(c: Context, limitBytes: number): Promise<BodyText> {
  try {
    const declared = c.req.header("content-length");
    if (declared !== undefined && !(Number(declared) > limitBytes)) {
      return { kind: "text", text: await c.req.text(), kept: true };
    }
    const bytes = await readBoundedBytes(c.req.raw, limitBytes);
    return bytes === undefined ? { kind: "too_large" } : { kind: "text", text: decoder.decode(bytes), kept: false };
  } catch (error) {
    if (isCutOff(error)) return { kind: "cut_off" };
    throw error;
  }
}

/**
 * The body's bytes, undefined when there are more than `limitBytes` (declared or sent), or {@link BODY_CUT_OFF}:
 * the client's failure, not the server's, so not an error that would end in a 500.
 */
export async function readBodyBytes(
  request: Request,
  limitBytes: number,
): Promise<Uint8Array | undefined | typeof BODY_CUT_OFF> {
  try {
    return await readBoundedBytes(request, limitBytes);
  } catch (error) {
    if (isCutOff(error)) return BODY_CUT_OFF;
    throw error;
  }
}

async function readBoundedBytes(request: Request, limitBytes: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    // The HTTP parser holds a body to its declared length, so reading it whole is safe once that is in bounds.
    if (Number(declared) > limitBytes) return undefined;
    return new Uint8Array(await request.arrayBuffer());
  }
  if (request.body === null) return new Uint8Array();

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
