export type JsonBody =
  { kind: "json"; value: unknown } | { kind: "too_large" } | { kind: "invalid_json"; message: string };

/** The client closed its connection before its whole body arrived (Node's "aborted", ECONNRESET). */
export const BODY_CUT_OFF = "the connection closed before the whole body arrived";

function isCutOff(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ECONNRESET";
}

const decoder = new TextDecoder();

// Hand-written rather than hono/body-limit: that middleware refuses a large body before the handler runs, but the
// contract checks the key first (no key: 401 whatever the size), and the proxy needs the bytes themselves.

/** Reads at most `limitBytes` of the body and parses it as JSON; an empty body reads as `{}`. */
export async function readJsonBody(request: Request, limitBytes: number): Promise<JsonBody> {
  let text: string;
  try {
    // A declared length in bounds (see readBoundedBytes): text() decodes the bytes as read, where arrayBuffer() copies them.
    const declared = request.headers.get("content-length");
    if (declared !== null && !(Number(declared) > limitBytes)) {
      text = await request.text();
    } else {
      const bytes = await readBoundedBytes(request, limitBytes);
      if (bytes === undefined) return { kind: "too_large" };
      text = decoder.decode(bytes);
    }
  } catch (error) {
    if (isCutOff(error)) return { kind: "invalid_json", message: BODY_CUT_OFF };
    throw error;
  }
  if (text.trim() === "") return { kind: "json", value: {} };
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch (error) {
    return { kind: "invalid_json", message: error instanceof Error ? error.message : String(error) };
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
