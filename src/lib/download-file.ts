/**
 * Saves a file through a temporary link: no server round trip, nothing kept after the click. `content` may come in
 * parts (a large export's chunks), joined by the Blob rather than into one string first.
 */
export function downloadFile(content: string | readonly string[], type: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob(typeof content === "string" ? [content] : [...content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
