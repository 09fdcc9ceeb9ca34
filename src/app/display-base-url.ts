/** Where the stored key points, shown without the scheme when that reads better. */
export function displayBaseUrl(baseUrl: string): string {
  return baseUrl === "" ? "this origin" : baseUrl.replace(/^https?:\/\//, "");
}
