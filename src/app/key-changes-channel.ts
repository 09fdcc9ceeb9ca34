/**
 * Where the tabs of this browser tell each other which keys changed: ids, and the fields a bulk run set; never a
 * secret. Its own file so that the listener opens it on the first screen, before the caches' code is here.
 */
export const KEY_CHANGES_CHANNEL = "keyscope-key-changes";
