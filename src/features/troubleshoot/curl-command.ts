import { bearer, listKeysPaths } from "../../lib/contract";

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A POST by hand, with the key left to the shell as `$API_KEY`: it never appears in the text. */
export function curlCommand(url: string, body: Record<string, unknown> = {}): string {
  return [
    `curl -i -X POST ${shellQuote(url)} \\`,
    `  -H "Authorization: ${bearer("$API_KEY")}" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join("\n");
}

/** The list request the dashboard makes first for this base URL and API ID. */
export function listKeysCurl(baseUrl: string, apiId?: string): string {
  const id = apiId?.trim() || undefined;
  return curlCommand(`${baseUrl}${listKeysPaths(id)[0] ?? ""}`, id ? { apiId: id } : {});
}
