/** Every route of the app, in one place: links, redirects and the router read them from here. */
export const paths = {
  home: "/",
  connect: "/connect",
  keys: "/keys",
  troubleshoot: "/troubleshoot",
} as const;

/** Where every error panel's "Troubleshooting guide" leads. */
export const TROUBLESHOOT_PATH = paths.troubleshoot;
