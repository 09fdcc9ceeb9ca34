/** Where every error panel's "Troubleshooting guide" leads. */
export const TROUBLESHOOT_PATH = "/troubleshoot";
