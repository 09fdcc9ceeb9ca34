/** Small helpers that talk to the reference server the way any client would. */

export const LIST_KEYS = "/v2/keys.listKeys";

export interface RawAnswer {
  status: number;
  body: string;
}

export async function postListKeys(baseUrl: string, rootKey: string | undefined, body: unknown): Promise<RawAnswer> {
  const response = await fetch(`${baseUrl}${LIST_KEYS}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(rootKey !== undefined && { authorization: `Bearer ${rootKey}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.text() };
}

interface PageShape {
  data: { keys: { keyId: string }[] };
  pagination: { cursor?: string; hasMore: boolean };
}

function isPage(value: unknown): value is PageShape {
  if (typeof value !== "object" || value === null) return false;
  const { data, pagination } = value as Record<string, unknown>;
  return (
    typeof data === "object" &&
    data !== null &&
    Array.isArray((data as Record<string, unknown>).keys) &&
    typeof pagination === "object" &&
    pagination !== null
  );
}

export function parsePage(body: string): PageShape {
  const value: unknown = JSON.parse(body);
  if (!isPage(value)) throw new Error(`not a listKeys page: ${body.slice(0, 200)}`);
  return value;
}

/** Every key id of the workspace, in the server's order, by paging through listKeys. */
export async function allKeyIds(baseUrl: string, rootKey: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const answer = await postListKeys(baseUrl, rootKey, { limit: 100, ...(cursor !== undefined && { cursor }) });
    if (answer.status !== 200) throw new Error(`listKeys answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    const page = parsePage(answer.body);
    ids.push(...page.data.keys.map((key) => key.keyId));
    if (!page.pagination.hasMore || page.pagination.cursor === undefined) return ids;
    cursor = page.pagination.cursor;
  }
}
