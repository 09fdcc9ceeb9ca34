/** The Base URL the key-entry form suggests: the build-time default when set, else where Keyscope is served. */
export function defaultBaseUrl(origin: string = window.location.origin): string {
  const configured = import.meta.env.VITE_KEYSCOPE_BASE_URL?.trim();
  return configured ? configured.replace(/\/+$/, "") : origin;
}
