import { parseErrorCode } from "../../src/lib/contract";
import { SERVER_ERROR_CODES, SERVER_ERROR_KINDS, type ServerErrorCode } from "../http/errors";
import { ERROR_DOCS } from "./error-docs";

/** Self-contained pages: inline CSS only, no script, readable in light and dark. Its hash is in their CSP. */
export const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f4f6f8; --border: #d0d7de; --accent: #0b57d0; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --panel: #161b22; --border: #30363d; --accent: #7ab7ff; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 2.5rem 1.25rem 4rem; }
/* Codes and addresses are long words: on a narrow screen they wrap rather than widen the page. */
h1, p, li, dd, td:first-child { overflow-wrap: anywhere; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0.25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 0.5rem; }
a { color: var(--accent); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
code { background: var(--panel); border: 1px solid var(--border); border-radius: 4px; padding: 0.05em 0.3em; box-decoration-break: clone; -webkit-box-decoration-break: clone; }
pre { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 0.9rem 1rem; overflow-x: auto; }
pre code { background: none; border: 0; padding: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.crumbs { color: var(--muted); font-size: 0.9rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.45rem 0.5rem; border-bottom: 1px solid var(--border); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
th:nth-child(2), td:nth-child(2) { white-space: nowrap; }
@media (max-width: 30rem) {
  h1 { font-size: 1.4rem; }
  /* The index's rows as cards: the code on a line of its own, then status and title. */
  thead { display: none; }
  table, tbody { display: block; }
  tr { display: grid; grid-template-columns: auto 1fr; padding: 0.45rem 0; border-bottom: 1px solid var(--border); }
  td { border-bottom: 0; padding: 0.1rem 0.5rem; }
  td:first-child { grid-column: 1 / -1; }
}
`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** An error code, escaped, that may wrap after each colon on a narrow screen. */
function wrappableCode(code: string): string {
  return escapeHtml(code).replaceAll(":", ":<wbr>");
}

/** Escapes, then turns `backticks` into code spans. */
function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Keyscope error reference</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function errorDocsPath(code: ServerErrorCode): string {
  const parts = parseErrorCode(code);
  if (parts === null) throw new Error(`not an error code: ${code}`);
  return `/docs/errors/${parts.system}/${parts.category}/${parts.kind}`;
}

export function renderErrorPage(code: ServerErrorCode, origin: string): string {
  const kind = SERVER_ERROR_KINDS[code];
  const doc = ERROR_DOCS[code];
  const list = (items: readonly string[]) => items.map((item) => `<li>${inline(item)}</li>`).join("\n");
  const example =
    doc.example === undefined
      ? ""
      : `<h2>Example</h2>\n<pre><code>${escapeHtml(doc.example.replaceAll("{origin}", origin))}</code></pre>`;
  return page(
    kind.title,
    `<p class="crumbs"><a href="/docs">Error reference</a></p>
<h1>${escapeHtml(kind.title)}: <code>${wrappableCode(code)}</code></h1>
<dl class="facts">
<dt>Code</dt><dd><code>${escapeHtml(code)}</code></dd>
<dt>HTTP status</dt><dd>${kind.status} ${escapeHtml(kind.title)}</dd>
<dt>Detail</dt><dd>${escapeHtml(kind.detail)}</dd>
</dl>
<h2>What happened</h2>
<p>${inline(doc.whatHappened)}</p>
<h2>How to fix it</h2>
<ol>
${list(doc.howToFix)}
</ol>
${example}
<h2>Common mistakes</h2>
<ul>
${list(doc.commonMistakes)}
</ul>`,
  );
}

export function renderIndexPage(): string {
  const rows = SERVER_ERROR_CODES.map((code) => {
    const kind = SERVER_ERROR_KINDS[code];
    return `<tr><td><a href="${errorDocsPath(code)}"><code>${wrappableCode(code)}</code></a></td><td>${kind.status}</td><td>${escapeHtml(kind.title)}</td></tr>`;
  }).join("\n");
  return page(
    "All error kinds",
    `<h1>Error reference</h1>
<p>Every error the API answers with carries <code>error.type</code>, the address of its page here.
The code is the address's last three parts: <code>…/errors/svc/authentication/missing</code> is <code>err:svc:authentication:missing</code>.</p>
<table>
<thead><tr><th>Code</th><th>Status</th><th>Title</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`,
  );
}

export function renderUnknownKindPage(path: string): string {
  return page(
    "Unknown error kind",
    `<p class="crumbs"><a href="/docs">Error reference</a></p>
<h1>No such error kind</h1>
<p>Nothing is documented at <code>${escapeHtml(path)}</code>. The <a href="/docs">error reference</a> lists every kind this server knows.</p>`,
  );
}
