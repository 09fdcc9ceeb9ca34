/**
 * The one error catalog: for every error Keyscope can meet, what it says, what it suggests and which
 * actions it offers. `describeError` picks the entry and fills in the specifics; the panel only renders.
 * A verification's outcome is not an error: what each one means is in lib/verification-outcomes.ts.
 *
 * Catalog text may mark code with backticks (rendered as <code>); server strings are never put through that.
 */
import {
  ApiError,
  InvalidConnectionError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  type InternalError,
  type KeyscopeError,
  type NetworkFailureKind,
} from "../../lib/api-errors";
import {
  AUTHORIZATION_HEADER_EXAMPLE,
  createRootKeyCommand,
  DELETE_KEY_PATH,
  DELETE_KEY_PERMISSION,
  DELETE_OVERRIDE_PATH,
  GET_OVERRIDE_PATH,
  GET_RATELIMITS_PATH,
  LIST_OVERRIDES_PATH,
  RATELIMIT_LIMIT_PATH,
  RATELIMIT_MULTI_LIMIT_PATH,
  ratelimitPermission,
  SET_OVERRIDE_PATH,
  GET_KEY_PATH,
  GET_VERIFICATIONS_PATH,
  LIST_KEYS_PATH,
  READ_ANALYTICS_PERMISSION,
  READ_KEYS_PERMISSION,
  UPDATE_KEY_PATH,
  UPDATE_KEY_PERMISSION,
  WHOAMI_PATH,
  type ErrorDetailEntry,
  type RatelimitAction,
} from "../../lib/contract";
import { CodeLoadError } from "../../lib/retryable-lazy";
import { httpOriginOf, toSafeHttpUrl } from "../../lib/safe-url";
import type { Tone } from "../../lib/tone";
import { curlCommand } from "./curl-command";
import { proxyCommand } from "./proxy-command";

export type Action = "retry" | "reenter-key" | "troubleshoot" | "enter-api-id";

export interface Snippet {
  /** What it is, shown above it. */
  caption: string;
  text: string;
  /** Accessible name of its copy button. */
  copyLabel: string;
}

export interface DiagnosisContext {
  /** The base URL the request went to, as the user entered it. */
  baseUrl?: string | undefined;
  /** This page's origin, for the advice that depends on it (CORS, relative base URLs). */
  pageOrigin?: string | undefined;
}

/** Everything the panel shows for one error. */
export interface Diagnosis {
  entryId: string;
  tone: Tone;
  heading: string;
  whatHappened: string;
  fixSteps: string[];
  /** Text to copy: a header, a command. */
  snippets: Snippet[];
  likelyCauses: string[];
  /** The actions worth offering, the most useful first. */
  actions: Action[];
  status: number | null;
  code: string | null;
  /** The API's own words (`error.title`, `error.detail`), for an ApiError. */
  apiSays: { title: string; detail: string } | null;
  /** `error.errors[]` of an invalid-input answer. */
  problems: ErrorDetailEntry[];
  requestId: string | null;
  /** `error.type` as a link, only when it is plainly http(s). */
  docsHref: string | null;
  /** `error.type` when it is not a safe link: shown as text. */
  docsText: string | null;
  /** When a retry makes sense again (ms since the epoch), from Retry-After. */
  retryAt: number | null;
  /** Plain-text evidence: what came back, or what broke. */
  excerpt: { label: string; text: string } | null;
}

type Fill<E, T> = T | ((error: E, context: Resolved) => T);

interface Resolved {
  /** The absolute request URL, or a placeholder when it cannot be made absolute. */
  requestUrl: string;
  /** The API's origin, or a placeholder. */
  apiOrigin: string;
  pageOrigin: string | null;
  /** The permission the request's operation needs (docs/api.md#operations), for a 403 that says it is missing. */
  permission: NeededPermission;
}

interface NeededPermission {
  name: string;
  /** The same for one API (or namespace): its id, or `<apiId>` for the reader to fill in. */
  perApi: string;
  /** What one grant is for: an API's keys, or a rate-limit namespace. */
  over: "API" | "namespace";
  /** "read analytics": what the key may not do without it. */
  action: string;
}

/** `api.*.<action>` for one API: `api.<apiId>.<action>`; `ratelimit.*.<action>` for one namespace. */
function forOneApi(permission: string): string {
  return permission.replace(".*.", permission.startsWith("ratelimit.") ? ".<namespaceId>." : ".<apiId>.");
}

/**
 * The API-specific form of the permission, with the API's id when the service's words name it (both services list
 * `api.<apiId>.<action>` in a 403's detail), else with `<apiId>` for the reader to fill in.
 */
function perApiNamed(error: ApiError, permission: NeededPermission): string {
  const [resource = "api", , action = ""] = permission.name.split(".");
  const named = new RegExp(`\\b${resource}\\.([A-Za-z0-9_]+)\\.${action}\\b`).exec(error.detail)?.[1];
  return named === undefined ? permission.perApi : `${resource}.${named}.${action}`;
}

/** The rate-limit operations, by the namespace permission each asks. */
const RATELIMIT_NEEDS: readonly { path: string; action: RatelimitAction; words: string }[] = [
  { path: GET_RATELIMITS_PATH, action: "read_analytics", words: "read rate-limit analytics" },
  { path: LIST_OVERRIDES_PATH, action: "read_override", words: "read rate-limit overrides" },
  { path: GET_OVERRIDE_PATH, action: "read_override", words: "read rate-limit overrides" },
  { path: SET_OVERRIDE_PATH, action: "set_override", words: "set rate-limit overrides" },
  { path: DELETE_OVERRIDE_PATH, action: "delete_override", words: "delete rate-limit overrides" },
  { path: RATELIMIT_LIMIT_PATH, action: "limit", words: "rate-limit identifiers" },
  { path: RATELIMIT_MULTI_LIMIT_PATH, action: "limit", words: "rate-limit identifiers" },
];

/** Which permission an operation needs, by its path; listing keys unless the request was another operation. */
function neededPermission(requestUrl: string): NeededPermission {
  const ratelimit = RATELIMIT_NEEDS.find(({ path }) => requestUrl.endsWith(path));
  if (ratelimit !== undefined) {
    const name = ratelimitPermission(ratelimit.action);
    return { name, perApi: forOneApi(name), over: "namespace", action: ratelimit.words };
  }
  if (requestUrl.endsWith(GET_VERIFICATIONS_PATH)) {
    return {
      name: READ_ANALYTICS_PERMISSION,
      perApi: forOneApi(READ_ANALYTICS_PERMISSION),
      over: "API",
      action: "read analytics",
    };
  }
  // The key changes a bulk run sends: their refusal must not read as one to list keys.
  if (requestUrl.endsWith(UPDATE_KEY_PATH))
    return {
      name: UPDATE_KEY_PERMISSION,
      perApi: forOneApi(UPDATE_KEY_PERMISSION),
      over: "API",
      action: "change keys",
    };
  if (requestUrl.endsWith(DELETE_KEY_PATH))
    return {
      name: DELETE_KEY_PERMISSION,
      perApi: forOneApi(DELETE_KEY_PERMISSION),
      over: "API",
      action: "delete keys",
    };
  const action = requestUrl.endsWith(GET_KEY_PATH) || requestUrl.endsWith(WHOAMI_PATH) ? "read this key" : "list keys";
  return { name: READ_KEYS_PERMISSION, perApi: forOneApi(READ_KEYS_PERMISSION), over: "API", action };
}

export interface CatalogEntry<E> {
  id: string;
  tone: Tone;
  heading: Fill<E, string>;
  whatHappened: Fill<E, string>;
  fix: Fill<E, readonly string[]>;
  snippets?: Fill<E, readonly Snippet[]>;
  likelyCauses: Fill<E, readonly string[]>;
  actions: readonly Action[];
}

function isFiller<E, T>(value: Fill<E, T>): value is (error: E, context: Resolved) => T {
  return typeof value === "function";
}

function fill<E, T>(value: Fill<E, T>, error: E, context: Resolved): T {
  return isFiller(value) ? value(error, context) : value;
}

// ---------------------------------------------------------------------------------------------------------------
// Snippets

const HEADER_SNIPPET: Snippet = {
  caption: "The header the API expects",
  text: AUTHORIZATION_HEADER_EXAMPLE,
  copyLabel: "Copy the header",
};

/** The proxy-mode command, unless it would point the proxy at this page itself. */
function proxySnippets(_error: unknown, context: Resolved): Snippet[] {
  const text = proxyCommand(context.apiOrigin, context.pageOrigin);
  return text === null
    ? []
    : [{ caption: "Keyscope's server in proxy mode, in front of the API", text, copyLabel: "Copy the proxy command" }];
}

function curlSnippet(context: Resolved): Snippet {
  return {
    caption: "The same request, by hand",
    copyLabel: "Copy the curl command",
    text: curlCommand(context.requestUrl),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// API error kinds, keyed `<category>:<kind>` (the `<system>` segment does not matter)

const SEED_CAUSES = [
  "The `Bearer ` prefix was left out, so the header is not recognised.",
  "A proxy or gateway between the client and the API strips the `Authorization` header.",
  "The key has expired or was revoked.",
  "The key is from the wrong environment (development instead of production, or the other way round).",
] as const;

const missing: CatalogEntry<ApiError> = {
  id: "authentication:missing",
  tone: "danger",
  heading: "The request reached the API without an API key",
  whatHappened: (error) =>
    "The request carried no `Authorization` header, so the API could not tell who was asking and refused it." +
    (error.status === 400 ? " (The real service reports this as 400 invalid input, located in `security`.)" : ""),
  fix: [
    "Send the key in the `Authorization` header: the word `Bearer`, exactly one space, then the key.",
    "In Keyscope, choose Re-enter key and paste your root key: Keyscope adds the header itself.",
    "Calling the API from your own code? Add the header below to every request.",
  ],
  snippets: [HEADER_SNIPPET],
  likelyCauses: SEED_CAUSES,
  actions: ["reenter-key", "retry", "troubleshoot"],
};

/** Keyscope sent the key, yet the API says none arrived: the header was removed on the way. */
const missingStripped: CatalogEntry<ApiError> = {
  id: "authentication:missing:stripped",
  tone: "danger",
  heading: "Something between your browser and the API stripped the Authorization header",
  whatHappened: (error) =>
    "Keyscope sent your key in the `Authorization` header, but the API says no credentials arrived: " +
    "a proxy, gateway, load balancer or CDN between the browser and the API removed the header on the way." +
    (error.redirectedTo
      ? ` The request was also redirected (to ${error.redirectedTo}), and browsers drop \`Authorization\` when a redirect leads to another origin.`
      : ""),
  fix: [
    "Find the proxy or gateway in front of the API and make it pass the `Authorization` header on unchanged.",
    "nginx: look for a `proxy_set_header Authorization` line that blanks or replaces it. Apache in front of PHP or CGI: add `CGIPassAuth On`.",
    "API gateways, CDNs and firewalls (AWS API Gateway, Cloudflare, Kong…): check their header-removal and transformation rules.",
    "If the base URL redirects (http to https, or to another host), use the final address as the base URL.",
    "Send the request below from the machine that runs the proxy: if the API accepts it there, the proxy is what strips the header.",
  ],
  snippets: (_error, context) => [HEADER_SNIPPET, curlSnippet(context)],
  likelyCauses: [
    "A reverse proxy or API gateway configured to drop or overwrite `Authorization` (the header the key travels in).",
    "A redirect to another origin: the browser removes `Authorization` when it follows one.",
    "A CDN or web-application firewall rule that strips credential headers.",
    "The header was sent in a form the gateway did not pass on, such as without the `Bearer ` prefix.",
  ],
  actions: ["retry", "reenter-key", "troubleshoot"],
};

/**
 * A name the workspace uses already, refused as the real service refuses it (409, "Conflicting Resource"): an
 * identity's external id, a permission's slug, a role's name name one thing each.
 */
function conflict(kind: string, thing: string, field: string, findIt: string): CatalogEntry<ApiError> {
  return {
    id: `data:${kind}_already_exists`,
    tone: "warning",
    heading: `The workspace already has ${thing} with this ${field}`,
    whatHappened: `The API refused to create ${thing}: its \`${field}\` names one that exists already, so nothing was created. The same request gets the same answer until that one is gone.`,
    fix: [`Use the existing one: ${findIt}.`, `Or choose another \`${field}\`, then send the request again.`],
    likelyCauses: [
      "The request was sent twice: a first attempt that succeeded but whose answer was lost (a timeout, a closed tab).",
      "Another person or program created it first.",
    ],
    actions: ["retry", "troubleshoot"],
  };
}

/**
 * A permission or a role the request named that the workspace does not have: the services check the root key's
 * permission first, so this is never a hidden refusal.
 */
function catalogueNotFound(kind: "permission" | "role", named: string, listIt: string): CatalogEntry<ApiError> {
  return {
    id: `data:${kind}_not_found`,
    tone: "danger",
    heading: `The workspace has no such ${kind}`,
    whatHappened: `The API answered 404 for the ${kind} in the request: no ${kind} of this workspace has that ${named}. It may have been deleted (in another tab, by another person or program), or the ${named} was mistyped. The root key's permission was checked first, so this is not a refusal in disguise.`,
    fix: [
      `Find it in the workspace's ${kind}s (\`${listIt}\`, or the Authorization page), and use its ${named} as listed.`,
      `If it was deleted and is still needed, create it again: keys and roles that held it do not get it back by themselves.`,
    ],
    likelyCauses: [
      `The ${kind} was deleted since the page was loaded.`,
      `A typo in the ${named}, or one from another workspace or environment.`,
    ],
    actions: ["retry", "troubleshoot"],
  };
}

const API_ENTRIES: Record<string, CatalogEntry<ApiError>> = {
  "data:identity_already_exists": conflict(
    "identity",
    "an identity",
    "externalId",
    "`identities.getIdentity` finds it by the external id, and `identities.updateIdentity` changes its meta and rate limits",
  ),
  "data:permission_already_exists": conflict(
    "permission",
    "a permission",
    "slug",
    "`permissions.getPermission` finds it by its slug (compared without regard to case)",
  ),
  "data:permission_not_found": catalogueNotFound("permission", "id or slug", "permissions.listPermissions"),
  "data:role_not_found": catalogueNotFound("role", "id or name", "permissions.listRoles"),
  "data:role_already_exists": conflict(
    "role",
    "a role",
    "name",
    "`permissions.getRole` finds it by name, and `permissions.setRolePermissions` replaces its permissions",
  ),
  "authentication:missing": missing,
  "authentication:malformed": {
    id: "authentication:malformed",
    tone: "danger",
    heading: "The Authorization header is not in the form the API expects",
    whatHappened:
      "The API received an `Authorization` header, but not as the word `Bearer`, exactly one space, then the key.",
    fix: [
      `Send exactly \`${AUTHORIZATION_HEADER_EXAMPLE}\`: \`Bearer\` with a capital B, one space, no quotes.`,
      "Paste only the key into Keyscope, without the word `Bearer`: Keyscope adds it itself.",
      "Copy the key again if quotes, spaces or a line break came along with it.",
    ],
    snippets: [HEADER_SNIPPET],
    likelyCauses: [
      "The key was pasted with `Bearer ` in front, so the header became `Bearer Bearer …`.",
      "A lower-case `bearer`, two spaces, or no space after `Bearer`.",
      "Quotes or whitespace copied along with the key.",
    ],
    actions: ["reenter-key", "retry", "troubleshoot"],
  },
  "authentication:key_not_found": {
    id: "authentication:key_not_found",
    tone: "danger",
    heading: "The API does not know this root key",
    whatHappened:
      "The key arrived in the right form, but the API has no such key: it never existed there, or it was revoked.",
    fix: [
      "Copy the root key again from where it was created, all of it, and choose Re-enter key.",
      "Check that the base URL points at the environment the key belongs to (development or production).",
      "If the key was revoked or has expired, create a new root key and use that.",
    ],
    likelyCauses: [
      "The key was revoked or has expired.",
      "The key belongs to another environment or deployment than the base URL.",
      "Part of the key was cut off when it was copied.",
    ],
    // A retry with a key the API does not know cannot work: the fix is another key (issue 14.13).
    actions: ["reenter-key", "troubleshoot"],
  },
  "authorization:insufficient_permissions": {
    id: "authorization:insufficient_permissions",
    tone: "danger",
    heading: (_error, context) => `This root key may not ${context.permission.action}`,
    whatHappened: (error, context) =>
      `The API knows the root key, but it lacks the permission to ${context.permission.action}: \`${context.permission.name}\` (every ${context.permission.over}) or \`${perApiNamed(error, context.permission)}\` (that ${context.permission.over} only).`,
    fix: (error, context) => [
      `Give the root key \`${context.permission.name}\` (or \`${perApiNamed(error, context.permission)}\` for one ${context.permission.over}).`,
      "Or use a root key that already has it, with Re-enter key.",
      "On Keyscope's reference server, the command below creates such a root key.",
    ],
    snippets: (_error, context) => [
      {
        caption: `A root key that may ${context.permission.action}, on the reference server`,
        // Every page reads keys; the analytics permission comes on top of that.
        text: createRootKeyCommand({
          name: "keyscope",
          permissions: [...new Set([READ_KEYS_PERMISSION, context.permission.name])],
        }),
        copyLabel: "Copy the command",
      },
    ],
    likelyCauses: [
      "The root key was created for another task, with other permissions.",
      "Its permissions were narrowed after it was created.",
    ],
    actions: ["reenter-key", "retry", "troubleshoot"],
  },

  "authorization:key_disabled": {
    id: "authorization:key_disabled",
    tone: "danger",
    heading: "This root key is disabled",
    whatHappened: "The root key exists, but it has been disabled, so the API refuses every request made with it.",
    fix: [
      "Enable the root key again where it is managed, if it was disabled by mistake.",
      "Otherwise use another root key, with Re-enter key.",
    ],
    likelyCauses: [
      "Someone disabled the key on purpose, for example while rotating keys.",
      "An automated policy disabled it.",
    ],
    actions: ["reenter-key", "retry", "troubleshoot"],
  },
  "application:invalid_input": {
    id: "application:invalid_input",
    tone: "danger",
    heading: "The API rejected the request as invalid",
    whatHappened: (error) =>
      error.errors.length > 0
        ? "The request reached the API, but its body failed validation. Each problem the API found is listed below."
        : "The request reached the API, but its body failed validation.",
    fix: [
      "Fix each field the API names below, then retry.",
      "If you changed nothing, Keyscope and the API disagree about the request: check that the base URL points at a `/v2/` API.",
    ],
    likelyCauses: [
      "A field with the wrong type or out of range (`limit` is 1 to 100).",
      "A field the API does not know: it rejects unknown fields.",
      "The base URL points at another version of the API.",
    ],
    actions: ["retry", "troubleshoot"],
  },
  "data:api_not_found": {
    id: "data:api_not_found",
    tone: "danger",
    heading: "The API was not found, or this root key may not read it",
    whatHappened:
      "The API answered 404 for the `apiId` in the request. The real service gives this same answer when the key lacks read permission on that API, so that it does not reveal which APIs exist.",
    fix: [
      "Check the `apiId`: it starts with `api_`; copy it again from where the API is managed.",
      "Check that the key may read that API and its keys: listing them asks both `api.<apiId>.read_key` and `api.<apiId>.read_api` (or `api.*.read_key` and `api.*.read_api`).",
      "Check that the key and the API belong to the same workspace.",
    ],
    likelyCauses: [
      "A typo in the `apiId`, or an id from another workspace.",
      "The key lacks read permission on that API.",
      "The API was deleted.",
    ],
    actions: ["reenter-key", "retry", "troubleshoot"],
  },
  "bad_request:request_body_too_large": {
    id: "bad_request:request_body_too_large",
    tone: "danger",
    heading: "The request was too large",
    whatHappened:
      "The API accepts request bodies up to 1 MiB, and this one was refused as larger. A list request is tiny, so a proxy with a smaller limit may be what answered.",
    fix: [
      "Send shorter filter values (`apiId`, `externalId`, `cursor`).",
      "If a proxy sits in front of the API, check its body-size limit (nginx: `client_max_body_size`).",
    ],
    likelyCauses: ["A proxy or gateway with a very small request-size limit.", "An unusually long filter value."],
    actions: ["retry", "troubleshoot"],
  },
  "too_many_requests:rate_limited": {
    id: "too_many_requests:rate_limited",
    tone: "warning",
    heading: "Too many requests: wait a moment",
    // The wait itself is the live countdown beside this text: a second, frozen number would contradict it.
    whatHappened: (error) =>
      error.retryAfterSeconds === null
        ? "The key has used up its rate limit. The API did not say how long to wait; give it a minute."
        : "The key has used up its rate limit. The API said when the next request may be sent: the countdown shows how long is left.",
    fix: [
      "Wait until the countdown ends, then retry.",
      "Avoid reloading repeatedly: every request counts against the limit.",
      "If other programs use the same root key, they share its limit: give Keyscope a key of its own.",
    ],
    likelyCauses: [
      "Several tabs or programs using the same root key.",
      "Reloading or paging quickly through many pages.",
      "A low rate limit set on the root key.",
    ],
    actions: ["retry", "troubleshoot"],
  },
  "data:key_not_found": {
    id: "data:key_not_found",
    tone: "danger",
    heading: "The key was not found, or this root key may not read it",
    whatHappened: (_error, context) =>
      `The API answered 404 for the key in the request. Either no such key exists in this workspace (or it was deleted), or this root key lacks \`${context.permission.name}\` on the key's API: the real service gives the same answer then (\`keys.whoami\` always, \`keys.getKey\` for another workspace's key), so that it does not reveal which keys exist.`,
    fix: (_error, context) => [
      "Check the `keyId` (it starts with `key_`) or the secret: copy it again from the keys list or from where it was handed out.",
      `Check that the root key may read keys of that API: \`${context.permission.name}\`, or \`${context.permission.perApi}\` for one API.`,
      "Check that the base URL points at the workspace and environment the key belongs to.",
    ],
    likelyCauses: (_error, context) => [
      "A typo in the `keyId`, or an id cut off when it was copied.",
      `The root key lacks \`${context.permission.name}\` (or \`${context.permission.perApi}\`) on the key's API.`,
      "The key was deleted, or belongs to another workspace or environment.",
    ],
    actions: ["reenter-key", "retry", "troubleshoot"],
  },
  "data:ratelimit_namespace_not_found": {
    id: "data:ratelimit_namespace_not_found",
    tone: "danger",
    heading: "The rate-limit namespace was not found",
    whatHappened:
      "The API answered 404 for the `namespace` in the request: no namespace of this root key's workspace has that name or id, or it was deleted. Names are exact: `sms.sign_up` is not `SMS.sign_up`.",
    fix: [
      "Check the namespace's name, or its id (`rlns_…`), as your code passes it to `ratelimit.limit`.",
      "A namespace is made by its first `ratelimit.limit`, by a root key that holds `ratelimit.*.create_namespace`; on Keyscope's reference server, `npm run admin -- namespaces create --name <name>` makes one.",
      "Check that the base URL and the root key are those of the namespace's workspace.",
    ],
    likelyCauses: [
      "A typo, or another case, in the name.",
      "No limit has been made in it yet, so it does not exist yet.",
      "It is another workspace's namespace, or it was deleted.",
    ],
    actions: ["retry", "troubleshoot"],
  },
  "data:ratelimit_override_not_found": {
    id: "data:ratelimit_override_not_found",
    tone: "warning",
    heading: "The override was not found",
    whatHappened:
      "The API answered 404 for the `identifier`: the namespace has no override set for exactly it (a pattern is named as it was set, `*` included). Reading one answers the same when the root key may not read it, so that no one can tell which identifiers have overrides.",
    fix: [
      "Load the namespace's overrides again: it may have been deleted or changed already, in another tab or by another client.",
      "Check the identifier: exact, its case and its `*` included.",
    ],
    likelyCauses: ["Someone deleted it first.", "The identifier differs from the one it was set for."],
    actions: ["retry", "troubleshoot"],
  },
  "data:ratelimit_namespace_gone": {
    id: "data:ratelimit_namespace_gone",
    tone: "danger",
    heading: "The rate-limit namespace was deleted",
    whatHappened:
      "The API answered 410 Gone: the namespace exists but was deleted, so no limit is decided in it any more. Its history stays in analytics, and its name stays taken.",
    fix: [
      "Use another namespace's name in your code's `ratelimit.limit`.",
      "The real service restores a deleted namespace only through its support.",
    ],
    likelyCauses: ["Someone deleted the namespace where namespaces are managed."],
    actions: ["retry", "troubleshoot"],
  },
  "bad_request:invalid_analytics_query_type": {
    id: "bad_request:invalid_analytics_query_type",
    tone: "danger",
    heading: "Only SELECT queries may run on analytics",
    whatHappened:
      "The analytics query is not a `SELECT`: analytics only reads, so anything that writes or changes tables (`INSERT`, `ALTER`, `DROP`…) is refused.",
    fix: [
      "Write the query as a `SELECT` (with `WITH`, `UNION`, subqueries or window functions if needed).",
      "Remove any statement after the first `;`.",
    ],
    likelyCauses: ["A statement that is not a `SELECT`.", "Two statements in one query."],
    actions: ["retry", "troubleshoot"],
  },
  "bad_request:invalid_analytics_query": {
    id: "bad_request:invalid_analytics_query",
    tone: "danger",
    heading: "The analytics query could not be parsed",
    whatHappened:
      "The analytics query is not valid SQL, so it was not run. The API's own words below say where it stopped.",
    fix: [
      "Check the query near the place the API names: brackets, quotes and commas.",
      "Quote text with single quotes (`'VALID'`); identifiers need no quotes.",
    ],
    likelyCauses: ["A typo or an unbalanced bracket or quote.", "SQL of another dialect than ClickHouse's."],
    actions: ["retry", "troubleshoot"],
  },
  "bad_request:invalid_analytics_table": {
    id: "bad_request:invalid_analytics_table",
    tone: "danger",
    heading: "The analytics query reads a table it may not",
    whatHappened:
      "Analytics queries may read only their operation's five tables, also inside subqueries and `WITH`: `key_verifications_v1` and `key_verifications_per_{minute,hour,day,month}_v1` (analytics.getVerifications), or `ratelimits_v1` and `ratelimits_per_{minute,hour,day,month}_v1` (analytics.getRatelimits).",
    fix: [
      "Read from one of the five verification tables instead (or, asking analytics.getRatelimits, the five rate-limit tables).",
      "Remove table functions and `system.*` or `information_schema.*` tables.",
    ],
    likelyCauses: ["A misspelled table name.", "A table of the database itself rather than a public table."],
    actions: ["retry", "troubleshoot"],
  },
  "bad_request:invalid_analytics_function": {
    id: "bad_request:invalid_analytics_function",
    tone: "danger",
    heading: "The analytics query uses a function that is not allowed",
    whatHappened:
      "Analytics queries may call only a listed set of aggregate, date, text and array functions; the query uses another one.",
    fix: [
      "Use an allowed function instead: `count`, `sum`, `countIf`, `toStartOfHour`, `fromUnixTimestamp64Milli`, `has`…",
      "Read the API's detail below: it names the function refused.",
    ],
    likelyCauses: ["A ClickHouse function outside the allowed list.", "A misspelled function name."],
    actions: ["retry", "troubleshoot"],
  },
  "unprocessable_entity:query_execution_timeout": {
    id: "unprocessable_entity:query_execution_timeout",
    tone: "warning",
    heading: "The analytics query took longer than 30 seconds",
    whatHappened: "The query ran for the 30 seconds a query may take and was stopped before it finished.",
    fix: [
      "Narrow the time range with a `WHERE time >= …` condition.",
      "Read a per-hour or per-day table (`key_verifications_per_day_v1`) instead of single verifications.",
    ],
    likelyCauses: ["A long time range over single verifications.", "A join or subquery over many rows."],
    actions: ["retry", "troubleshoot"],
  },
  "unprocessable_entity:query_memory_limit_exceeded": {
    id: "unprocessable_entity:query_memory_limit_exceeded",
    tone: "warning",
    heading: "The analytics query needed more than 1 GB of memory",
    whatHappened: "The query was stopped when it needed more than the 1 GB of memory a query may use.",
    fix: [
      "Group by fewer columns, or by coarser time buckets.",
      "Narrow the time range, or read a per-hour or per-day table.",
    ],
    likelyCauses: ["Grouping by a column with very many values (`request_id`, `key_id`).", "A long time range."],
    actions: ["retry", "troubleshoot"],
  },
  "unprocessable_entity:query_rows_limit_exceeded": {
    id: "unprocessable_entity:query_rows_limit_exceeded",
    tone: "warning",
    heading: "The analytics query returned too many rows",
    whatHappened: "The query's result would be larger than the 10 million rows a query may return.",
    fix: ["Add a `LIMIT`, or aggregate with `GROUP BY` instead of listing single verifications."],
    likelyCauses: ["A `SELECT *` over single verifications without a `LIMIT`."],
    actions: ["retry", "troubleshoot"],
  },
  "too_many_requests:query_quota_exceeded": {
    id: "too_many_requests:query_quota_exceeded",
    tone: "warning",
    heading: "This workspace ran its 1,000 analytics queries of the hour",
    whatHappened: (error) =>
      "Each workspace may run 1,000 analytics queries an hour, and this one has." +
      (error.retryAfterSeconds === null ? "" : " The countdown shows how long is left until the next may run."),
    fix: [
      "Wait until the countdown ends, then retry.",
      "Check for a program that queries analytics in a loop: every query counts, whichever key sends it.",
    ],
    likelyCauses: [
      "A dashboard or script that refreshes analytics often.",
      "Several people querying the same workspace.",
    ],
    actions: ["retry", "troubleshoot"],
  },
  "bad_request:query_range_exceeds_retention": {
    id: "bad_request:query_range_exceeds_retention",
    tone: "warning",
    heading: "The range reaches further back than the workspace keeps its verifications",
    whatHappened:
      "Analytics keeps a workspace's verifications for a limited time (30 days unless its plan keeps them longer), and the query's time range starts before that, so it was not run. The API's words below say from when data is kept.",
    fix: [
      "Choose a range inside the retention, such as the last 30 days.",
      "If older verifications are needed, the workspace's plan sets how long they are kept (the reference server: `npm run admin -- workspaces update --retention-days N`).",
    ],
    likelyCauses: [
      "A custom range that starts more than 30 days ago.",
      "A link made while its range was still inside the retention.",
    ],
    actions: ["retry", "troubleshoot"],
  },
  "proxy:upstream_redirect": {
    id: "proxy:upstream_redirect",
    tone: "danger",
    heading: "The API behind the proxy redirects to another site",
    whatHappened: (error) => {
      const target = error.errors.find((entry) => entry.location === "header.location")?.message;
      return `Keyscope's proxy asked the upstream API, which answered with a redirect${target ? ` to ${target}` : " to another origin"}. A browser cannot follow it with the key, so the proxy stopped there. A redirect to a sign-in page means the upstream sits behind single sign-on.`;
    },
    fix: [
      "If the redirect leads to the API's real address, restart the proxy with that address as `--upstream`.",
      "If it leads to a sign-in page, point `--upstream` at an address that reaches the API without a browser sign-in.",
    ],
    likelyCauses: [
      "`--upstream` with `http://` where the API redirects to `https://`, or an old address that moved.",
      "A single-sign-on gateway in front of the API.",
    ],
    actions: ["retry", "troubleshoot"],
  },
  "application:unexpected_error": {
    id: "application:unexpected_error",
    tone: "danger",
    heading: "The API ran into an error of its own",
    whatHappened: "The API failed while handling the request. Nothing in your request or key caused it.",
    fix: [
      "Retry in a few seconds: Keyscope retries a read twice before showing this, and never sends a change again by itself.",
      "If it keeps happening, report it to whoever runs the API, with the request id below.",
    ],
    likelyCauses: ["A bug or an outage in the API.", "A database or dependency of the API that is unavailable."],
    actions: ["retry", "troubleshoot"],
  },
  "application:service_unavailable": {
    id: "application:service_unavailable",
    tone: "warning",
    heading: "The API cannot answer this for a moment",
    whatHappened: (error) =>
      "A service the API needs could not answer yet (for analytics: its store may still be catching up with verifications recorded while it was stopped). The API's own words are below." +
      (error.retryAfterSeconds === null ? "" : " The countdown shows when it expects to answer."),
    fix: [
      "Wait until the countdown ends, then retry: Keyscope retries a read twice by itself.",
      "If it lasts, tell whoever runs the API, with the request id below.",
    ],
    likelyCauses: [
      "The analytics store catching up after a restart or a bulk load.",
      "The analytics database being unreachable or failing for a while.",
    ],
    actions: ["retry", "troubleshoot"],
  },
  "proxy:upstream_unreachable": {
    id: "proxy:upstream_unreachable",
    tone: "danger",
    heading: "The proxy cannot reach the API behind it",
    whatHappened:
      "The base URL is a Keyscope proxy (started with `--upstream`), and it got no answer from the API it relays to. Neither your request nor your key caused it, and the API may be fine: the detail below names the address the proxy tried.",
    fix: [
      "Check that the API at that address runs and that the machine running the proxy can reach it.",
      "If the address is wrong, stop the proxy and start it again with `npm start -- --upstream <the API's origin>`.",
    ],
    likelyCauses: [
      "The upstream API is down or restarting.",
      "A typo in `--upstream`: the host, the port, or `http` where the API speaks `https`.",
      "A firewall, VPN or proxy between the proxy's machine and the API.",
    ],
    actions: ["retry", "troubleshoot"],
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Fallbacks by status, for codes the catalog does not know

const STATUS_ENTRIES: Record<
  "400" | "401" | "403" | "404" | "409" | "413" | "429" | "5xx" | "other",
  CatalogEntry<ApiError>
> = {
  "400": {
    id: "status:400",
    tone: "danger",
    heading: "The API rejected the request",
    whatHappened:
      "The API answered 400 Bad Request: something in the request was not acceptable. Its own words are below.",
    fix: [
      "Read the API's detail below and the linked docs.",
      "Check that the base URL points at a `/v2/` API that Keyscope can speak to.",
    ],
    likelyCauses: ["A request field the API does not accept.", "Another version of the API."],
    actions: ["retry", "troubleshoot"],
  },
  "401": {
    id: "status:401",
    tone: "danger",
    heading: "The API did not accept the root key",
    whatHappened: "The API answered 401 Unauthorized: it could not establish who is asking from the key sent.",
    fix: [
      "Paste the root key again with Re-enter key, all of it, without the word `Bearer`.",
      "Check that the key belongs to the environment the base URL points at.",
    ],
    snippets: [HEADER_SNIPPET],
    likelyCauses: SEED_CAUSES,
    actions: ["reenter-key", "retry", "troubleshoot"],
  },
  "403": {
    id: "status:403",
    tone: "danger",
    heading: "The API refused this root key access",
    whatHappened: "The API answered 403 Forbidden: it knows the root key, but that key may not do this.",
    fix: [
      "Give the root key the permission to read keys (`api.*.read_key`), or use another key.",
      "Check that the key is enabled.",
    ],
    likelyCauses: ["Missing permissions.", "A disabled key.", "A gateway rule that blocks this client."],
    actions: ["reenter-key", "retry", "troubleshoot"],
  },
  "404": {
    id: "status:404",
    tone: "danger",
    heading: "Nothing was found at this address",
    whatHappened: (_error, context) =>
      `The API answered 404 Not Found for ${context.requestUrl}. The base URL may point at the wrong place, or this API may list keys elsewhere (the real service lists them at \`/v2/apis.listKeys\`).`,
    fix: [
      "Check that the base URL is the API's root, without `/v2` at its end.",
      "Check that the API offers `POST /v2/keys.listKeys`.",
    ],
    likelyCauses: ["A wrong base URL or path prefix.", "Another API, or another version of it, at this address."],
    actions: ["reenter-key", "retry", "troubleshoot"],
  },
  "409": {
    id: "status:409",
    tone: "warning",
    heading: "The request conflicts with something that exists",
    whatHappened:
      "The API answered 409 Conflict: what the request would create or change clashes with what is there already, so nothing was done. Its own words are below.",
    fix: [
      "Read the API's detail below: it names what exists already.",
      "Use the existing one, or send the request with another name.",
    ],
    likelyCauses: ["The same request sent twice.", "Someone else made the same change first."],
    actions: ["retry", "troubleshoot"],
  },
  "413": {
    id: "status:413",
    tone: "danger",
    heading: "The request was refused as too large",
    whatHappened:
      "The answer was 413 Content Too Large. A list request is tiny, so a proxy with a small limit probably answered.",
    fix: ["Check the body-size limit of any proxy in front of the API (nginx: `client_max_body_size`)."],
    likelyCauses: ["A proxy or gateway with a very small request-size limit."],
    actions: ["retry", "troubleshoot"],
  },
  "429": {
    id: "status:429",
    tone: "warning",
    heading: "Too many requests: wait a moment",
    whatHappened: (error) =>
      error.retryAfterSeconds === null
        ? "The answer was 429 Too Many Requests, without saying how long to wait; give it a minute."
        : "The answer was 429 Too Many Requests, with the time to wait: the countdown shows how long is left.",
    fix: ["Wait until the countdown ends, then retry.", "Avoid reloading repeatedly: every request counts."],
    likelyCauses: ["Several tabs or programs sharing the same key or address.", "A gateway's own rate limit."],
    actions: ["retry", "troubleshoot"],
  },
  "5xx": {
    id: "status:5xx",
    tone: "danger",
    heading: "The API failed on its side",
    whatHappened: (error) =>
      `The answer was ${error.status} ${error.title}: the API, or a gateway in front of it, failed while handling the request. Nothing in your request or key caused it.`,
    fix: [
      "Retry in a few seconds: Keyscope retries a read twice before showing this, and never sends a change again by itself.",
      "If it keeps happening, report it to whoever runs the API, with the request id below.",
    ],
    likelyCauses: ["An outage or a bug in the API.", "A gateway that cannot reach the API."],
    actions: ["retry", "troubleshoot"],
  },
  other: {
    id: "status:other",
    tone: "danger",
    heading: "The API refused the request",
    whatHappened: (error) =>
      `The API answered with an error (HTTP ${error.status}) that Keyscope has no specific guide for. Its own words and docs are below.`,
    fix: [
      "Read the API's detail below and the linked docs.",
      "Retry once; if it repeats, report it with the request id.",
    ],
    likelyCauses: ["An error kind newer than this version of Keyscope."],
    actions: ["retry", "troubleshoot"],
  },
};

const STATUS_BY_CODE = new Map<number, CatalogEntry<ApiError>>(
  ([400, 401, 403, 404, 409, 413, 429] as const).map((status) => [status, STATUS_ENTRIES[`${status}`]]),
);

function statusEntry(status: number): CatalogEntry<ApiError> {
  return STATUS_BY_CODE.get(status) ?? (status >= 500 ? STATUS_ENTRIES["5xx"] : STATUS_ENTRIES.other);
}

// ---------------------------------------------------------------------------------------------------------------
// No answer, or an answer that is not the API's

const NETWORK_ENTRIES: Record<NetworkFailureKind, CatalogEntry<NetworkError>> = {
  unreachable: {
    id: "network",
    tone: "danger",
    heading: "Keyscope could not reach the API",
    whatHappened: (_error, context) =>
      `The request to ${context.requestUrl} failed before any answer arrived: nothing answers there. The API may be down, its host name may not resolve, or something on the way blocked the connection.`,
    fix: [
      "Check the base URL: host, port, and `http` versus `https`.",
      "Check that the API is running: send the request below from this machine.",
      "A VPN, a firewall or a browser extension (ad or privacy blocker) may block the request: try without them.",
    ],
    snippets: (_error, context) => [curlSnippet(context)],
    likelyCauses: [
      "The API is not running, or is restarting.",
      "A typo in the base URL.",
      "A host name that does not resolve (a typo, or a name only another network knows).",
      "A firewall, VPN or browser extension that blocks the request.",
    ],
    actions: ["retry", "reenter-key", "troubleshoot"],
  },
  redirect: {
    id: "network:redirect",
    tone: "danger",
    heading: "The API's address answers with a redirect",
    whatHappened: (_error, context) =>
      `${context.requestUrl} answered, but with a redirect to another address, which this page may not read: browsers hide where a redirect leads from the page, and drop \`Authorization\` when it leads to another origin. The server answers; it sends the request elsewhere.`,
    fix: [
      "See where it leads with the command below (the `location` line), and use that address as the base URL if it is the API.",
      "Or remove the redirect for `/v2/*` on this server or the gateway in front of it.",
    ],
    snippets: (_error, context) => [
      {
        caption: "Where the redirect leads",
        copyLabel: "Copy the command",
        text: `curl -si -X POST '${context.requestUrl}' | grep -i '^location'`,
      },
    ],
    likelyCauses: [
      "A gateway or load balancer that redirects API paths to another host (or http to https).",
      "A single sign-on layer that sends every request to its sign-in page.",
      "An API that moved, with the old address redirecting to the new one.",
    ],
    actions: ["retry", "reenter-key", "troubleshoot"],
  },
  "blocked-by-page": {
    id: "network:blocked-by-page",
    tone: "danger",
    heading: "The browser sent nothing: this page may not call that address",
    whatHappened: (_error, context) =>
      `The API at ${context.apiOrigin} is plain http on another computer (or an https page calling http), and this page may send a root key unencrypted only to this computer, so the browser refused the request before it left.`,
    fix: (_error, context) => [
      "Use the API's `https://` address as the base URL.",
      "Or serve Keyscope next to the API with proxy mode, and open the address it prints.",
      ...(context.apiOrigin.includes("[::1]")
        ? ["For this computer, write `127.0.0.1` or `localhost` instead of `[::1]`."]
        : []),
    ],
    snippets: proxySnippets,
    likelyCauses: [
      "A base URL with `http://` for a server on another computer.",
      "`[::1]`, which the page's security policy cannot name: use `127.0.0.1`.",
    ],
    actions: ["reenter-key", "troubleshoot"],
  },
  offline: {
    id: "network:offline",
    tone: "warning",
    heading: "You are offline",
    whatHappened: "This device reports no network connection, so the request never left the browser.",
    fix: ["Reconnect to the network (Wi-Fi, cable or VPN), then retry."],
    likelyCauses: ["No network connection.", "Airplane mode, or a VPN that dropped."],
    actions: ["retry"],
  },
  cors: {
    id: "network:cors",
    tone: "danger",
    heading: "The browser blocked the API's answer: the API sends no CORS headers",
    whatHappened: (_error, context) =>
      `The API at ${context.apiOrigin} is on another origin than this page${context.pageOrigin ? ` (${context.pageOrigin})` : ""} and sends no CORS headers, so the browser did not let Keyscope read its answer. The real service sends no CORS headers at all: a browser can only reach it through a proxy on the page's own origin.`,
    fix: (_error, context) => [
      "Start Keyscope's server in proxy mode, in front of the API, with the command below.",
      "Open Keyscope from that server and keep its own address as the base URL: it relays `/v2/*` to the API unchanged.",
      `Is the API Keyscope's own reference server? Start it with \`--cors-origin ${context.pageOrigin ?? "<this page's origin>"}\` to allow this page instead.`,
    ],
    snippets: proxySnippets,
    likelyCauses: [
      "The API sends no `Access-Control-Allow-Origin` header for this page's origin.",
      "The real service, which sends no CORS headers at all, called straight from the browser.",
    ],
    actions: ["retry", "reenter-key", "troubleshoot"],
  },
};

const TIMEOUT_ENTRY: CatalogEntry<TimeoutError> = {
  id: "timeout",
  tone: "warning",
  heading: "The API took too long to answer",
  whatHappened: (error, context) =>
    `No answer came from ${context.requestUrl} within ${Math.round(error.timeoutMs / 100) / 10} s, so Keyscope gave up waiting.`,
  fix: [
    "Retry: a slow moment often passes.",
    "Check whether the API is overloaded or starting up.",
    "If a proxy sits in front, check that it can reach the API instead of holding the connection open.",
  ],
  likelyCauses: [
    "The API is overloaded or slow to start.",
    "A proxy waiting on an upstream that does not answer.",
    "A slow or unreliable network connection.",
  ],
  actions: ["retry", "troubleshoot"],
};

const UNEXPECTED_ENTRIES: Record<UnexpectedResponseError["reason"], CatalogEntry<UnexpectedResponseError>> = {
  html: {
    id: "unexpected:html",
    tone: "danger",
    heading: "A web page answered instead of the API",
    whatHappened: (error) =>
      `The answer (HTTP ${error.status}) was an HTML page, not the API's JSON: something other than the API answered, most often a proxy or gateway error page, a sign-in page, or a website at the base URL.`,
    fix: (error) => [
      "Check that the base URL points at the API itself, not at a website or at this dashboard.",
      "Read the excerpt below: a proxy's error page usually names itself (for example “502 Bad Gateway nginx”).",
      ...(error.status >= 500
        ? ["A 5xx page from a proxy means the API behind it is down or unreachable from the proxy: retry in a moment."]
        : []),
    ],
    likelyCauses: [
      "A proxy answered instead of the API (its 502, 503 or 504 page).",
      "A single-sign-on gateway or a captive portal showed its sign-in page.",
      "The base URL points at a website, or at the dashboard itself.",
    ],
    actions: ["retry", "reenter-key", "troubleshoot"],
  },
  empty: {
    id: "unexpected:empty",
    tone: "danger",
    heading: "The answer was empty",
    whatHappened: (error) =>
      `The answer (HTTP ${error.status}) had no body. The API always answers with JSON, so something else answered, or the connection was cut.`,
    fix: [
      "Check that the base URL points at the API.",
      "If a proxy or gateway sits in front, look for this request in its logs.",
    ],
    likelyCauses: (error) => [
      ...(error.status === 401 || error.status === 403
        ? [
            "An authenticating proxy or gateway (basic auth, an identity-aware proxy) refused the request before it reached the API.",
          ]
        : []),
      "A proxy or load balancer that answers errors with an empty body.",
      "The API crashed while answering.",
    ],
    actions: ["retry", "reenter-key", "troubleshoot"],
  },
  "invalid-json": {
    id: "unexpected:invalid-json",
    tone: "danger",
    heading: "The answer was cut off or is not valid JSON",
    whatHappened: (error) =>
      `The answer (HTTP ${error.status}) looked like JSON but could not be read as JSON, usually because it was cut off on the way.`,
    fix: ["Retry: a cut connection rarely repeats.", "If it does, check the proxy or gateway in front of the API."],
    likelyCauses: [
      "The connection was cut mid-answer (a proxy timeout, a crash).",
      "A proxy rewrote or truncated the body.",
      "Another service answered with something that only looks like JSON.",
    ],
    actions: ["retry", "troubleshoot"],
  },
  "not-envelope": {
    id: "unexpected:not-envelope",
    tone: "danger",
    heading: "The answer is not in the API's format",
    whatHappened: (error) =>
      error.status >= 200 && error.status < 300
        ? `The answer (HTTP ${error.status}) was not the API's list of keys: \`{meta, data}\` with keys that each have a text \`keyId\`.`
        : `The answer (HTTP ${error.status}) was not the API's error envelope \`{meta, error: {title, detail, status, type}}\`.`,
    fix: [
      "Check that the base URL points at the key-management API, not another service.",
      "Check that it is a `/v2/` API: Keyscope speaks that version.",
    ],
    likelyCauses: [
      "Another service answers at this address.",
      "A gateway replaced the API's answer with its own error format.",
      "Another version of the API.",
    ],
    actions: ["retry", "reenter-key", "troubleshoot"],
  },
  "too-large": {
    id: "unexpected:too-large",
    tone: "danger",
    heading: "The answer was too large to be a list of keys",
    whatHappened:
      "The answer was larger than 2 MB, so Keyscope stopped reading it. A page of keys is a few kilobytes, at most a few hundred.",
    fix: ["Check that the base URL points at the API.", "Check that the API honours the request's `limit`."],
    likelyCauses: ["Something other than the API answered (a download, a log stream).", "The API ignored `limit`."],
    actions: ["retry", "reenter-key", "troubleshoot"],
  },
};

const INVALID_CONNECTION_ENTRIES: Record<InvalidConnectionError["field"], CatalogEntry<InvalidConnectionError>> = {
  baseUrl: {
    id: "invalid-connection:base-url",
    tone: "danger",
    heading: "The base URL cannot be used",
    whatHappened: (error) => `${error.message} Keyscope did not send the request.`,
    fix: [
      "Enter the API's address starting with `https://` (or `http://` for a local server), for example `https://api.example.com`.",
      "Leave out any `?` or `#` part, and any user name or password: the key is the only credential.",
    ],
    likelyCauses: ["A typo, or an address copied with extra parts.", "`localhost:8787` without `http://` in front."],
    actions: ["reenter-key"],
  },
  apiKey: {
    id: "invalid-connection:api-key",
    tone: "danger",
    heading: "The API key cannot be sent as it is",
    whatHappened:
      "It contains spaces, line breaks or characters outside plain ASCII (such as curly quotes), which cannot travel in an HTTP header, so Keyscope did not send the request.",
    fix: ["Copy the key again, without quotes or spaces around it.", "Paste only the key, without the word `Bearer`."],
    likelyCauses: ["Quotes or a line break copied along with the key.", "A word processor that turned quotes curly."],
    actions: ["reenter-key"],
  },
  apiId: {
    id: "invalid-connection:api-id",
    tone: "info",
    heading: "This API lists keys per API: enter an API ID",
    whatHappened:
      "The server answered 404 to `POST /v2/keys.listKeys` without the API's error envelope: it has no such operation. The real service lists keys with `POST /v2/apis.listKeys`, which requires the `apiId` of the API whose keys to list.",
    fix: [
      "Find the API's id (it starts with `api_`) where your APIs are managed.",
      "Enter it below (or in the API ID field of key entry); Keyscope then uses `apis.listKeys`.",
      "If the base URL should point at Keyscope's reference server, check it: that server does have `keys.listKeys`.",
    ],
    likelyCauses: [
      "The base URL points at the real service (or a proxy to it), which has no `keys.listKeys` operation.",
      "The base URL has a wrong path prefix, so the operation is not found.",
    ],
    actions: ["enter-api-id", "reenter-key", "troubleshoot"],
  },
};

const CODE_LOAD_ENTRY: CatalogEntry<CodeLoadError> = {
  id: "code-load",
  tone: "danger",
  heading: "This part of Keyscope could not be loaded",
  whatHappened:
    "Its code did not arrive from the server Keyscope is served from (down, unreachable, or updated since the page loaded). The API was not involved.",
  fix: [
    "Retry once the server Keyscope is served from answers.",
    "If Retry keeps failing while the server answers, reload the page: Keyscope may have been updated since it loaded.",
  ],
  likelyCauses: [
    "The server Keyscope is served from is down or restarting.",
    "The connection dropped, or this computer is offline.",
    "Keyscope was updated since this page loaded, so the file it asked for is gone.",
  ],
  actions: ["retry", "troubleshoot"],
};

const INTERNAL_ENTRY: CatalogEntry<InternalError> = {
  id: "internal",
  tone: "danger",
  heading: "Keyscope ran into a problem of its own",
  whatHappened:
    "Something went wrong inside Keyscope, not in the API. Retrying often helps; if it keeps happening, please report it with the details below.",
  fix: ["Retry.", "Reload the page.", "If it repeats, report it with the details below."],
  likelyCauses: ["A bug in Keyscope."],
  actions: ["retry", "troubleshoot"],
};

/** The id of every entry: what the tests walk through to check that each one renders. */
export const CATALOG_IDS: readonly string[] = [
  ...Object.values(API_ENTRIES),
  missingStripped,
  ...Object.values(STATUS_ENTRIES),
  ...Object.values(NETWORK_ENTRIES),
  TIMEOUT_ENTRY,
  ...Object.values(UNEXPECTED_ENTRIES),
  ...Object.values(INVALID_CONNECTION_ENTRIES),
  CODE_LOAD_ENTRY,
  INTERNAL_ENTRY,
].map((entry) => entry.id);

// ---------------------------------------------------------------------------------------------------------------
// Choosing and filling in

function apiEntry(error: ApiError): CatalogEntry<ApiError> {
  if (error.missingCredentials) return error.keySent ? missingStripped : missing;
  return (error.kind === null ? undefined : API_ENTRIES[error.kind]) ?? statusEntry(error.status);
}

function resolveContext(error: KeyscopeError, context: DiagnosisContext): Resolved {
  const pageOrigin = context.pageOrigin ? httpOriginOf(context.pageOrigin) : null;
  const url = "url" in error ? error.url : `${context.baseUrl ?? ""}${LIST_KEYS_PATH}`;
  let requestUrl = url;
  if (httpOriginOf(url) === null) {
    requestUrl = pageOrigin !== null && url.startsWith("/") ? `${pageOrigin}${url}` : `<base URL>${LIST_KEYS_PATH}`;
  }
  const apiOrigin =
    (context.baseUrl ? httpOriginOf(context.baseUrl) : null) ?? httpOriginOf(requestUrl) ?? "<API origin>";
  return { requestUrl, apiOrigin, pageOrigin, permission: neededPermission(requestUrl) };
}

function describe<E extends KeyscopeError>(
  entry: CatalogEntry<E>,
  error: E,
  context: Resolved,
  specifics: Partial<Diagnosis>,
): Diagnosis {
  return {
    entryId: entry.id,
    tone: entry.tone,
    heading: fill(entry.heading, error, context),
    whatHappened: fill(entry.whatHappened, error, context),
    fixSteps: [...fill(entry.fix, error, context)],
    snippets: entry.snippets === undefined ? [] : [...fill(entry.snippets, error, context)],
    likelyCauses: [...fill(entry.likelyCauses, error, context)],
    actions: [...entry.actions],
    status: null,
    code: null,
    apiSays: null,
    problems: [],
    requestId: null,
    docsHref: null,
    docsText: null,
    retryAt: null,
    excerpt: null,
    ...specifics,
  };
}

/** What to tell the user about an error: pure, so every entry can be tested without rendering. */
export function describeError(error: KeyscopeError, context: DiagnosisContext = {}): Diagnosis {
  const resolved = resolveContext(error, context);
  if (error instanceof ApiError) {
    const docsHref = toSafeHttpUrl(error.type);
    return describe(apiEntry(error), error, resolved, {
      status: error.status,
      code: error.code,
      apiSays: { title: error.title, detail: error.detail },
      problems: error.errors,
      requestId: error.requestId,
      docsHref,
      docsText: docsHref === null && error.type !== "" ? error.type : null,
      retryAt: error.retryAt,
    });
  }
  if (error instanceof NetworkError) {
    return describe(NETWORK_ENTRIES[error.failure], error, resolved, {});
  }
  if (error instanceof TimeoutError) return describe(TIMEOUT_ENTRY, error, resolved, {});
  if (error instanceof UnexpectedResponseError) {
    return describe(UNEXPECTED_ENTRIES[error.reason], error, resolved, {
      status: error.status,
      requestId: error.requestId,
      excerpt:
        error.bodyExcerpt === ""
          ? null
          : { label: `What came back${error.contentType ? ` (${error.contentType})` : ""}`, text: error.bodyExcerpt },
    });
  }
  if (error instanceof InvalidConnectionError) {
    return describe(INVALID_CONNECTION_ENTRIES[error.field], error, resolved, {});
  }
  if (error instanceof CodeLoadError) return describe(CODE_LOAD_ENTRY, error, resolved, {});
  return describe(INTERNAL_ENTRY, error, resolved, {
    excerpt: { label: "Details for a bug report", text: error.summary },
  });
}
