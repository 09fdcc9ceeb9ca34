/**
 * The one proxy-mode command: Keyscope's server in front of the API, so that the dashboard and the API share an
 * origin. Null when the API's origin is this page's own: a proxy pointed at itself would only loop.
 */
export function proxyCommand(apiOrigin: string, pageOrigin: string | null): string | null {
  return apiOrigin === pageOrigin ? null : `npm start -- --upstream ${apiOrigin}`;
}
