import {
  AUTHORIZATION_HEADER_EXAMPLE,
  bearer,
  createRootKeyCommand,
  GET_VERIFICATIONS_PATH,
  LIST_KEYS_PATH,
  READ_KEYS_PERMISSION,
} from "../../src/lib/contract";
import type { ServerErrorCode } from "../http/errors";

/** What a docs page says about one error kind. Text may hold `code spans` in backticks. */
export interface ErrorDoc {
  whatHappened: string;
  howToFix: readonly string[];
  /** A request or header that works, shown as a code block. */
  example?: string;
  commonMistakes: readonly string[];
}

// The causes the contract lists for missing or rejected credentials.
const CREDENTIAL_CAUSES = [
  `The \`Bearer\` prefix is omitted: the header holds the key alone instead of \`${bearer("<API_KEY>")}\`.`,
  "A proxy or gateway between the client and the API strips the `Authorization` header.",
  "The key has expired or has been revoked.",
  "The key belongs to the wrong environment: a development key sent to production, or the other way round.",
] as const;

const LIST_KEYS_EXAMPLE = `curl -X POST {origin}${LIST_KEYS_PATH} \\
  -H "${AUTHORIZATION_HEADER_EXAMPLE}" \\
  -H "Content-Type: application/json" \\
  -d '{"limit": 10}'`;

const ANALYTICS_EXAMPLE = `curl -X POST {origin}${GET_VERIFICATIONS_PATH} \\
  -H "${AUTHORIZATION_HEADER_EXAMPLE}" \\
  -H "Content-Type: application/json" \\
  -d '{"query": "SELECT outcome, SUM(count) AS n FROM key_verifications_per_day_v1 WHERE time >= now() - INTERVAL 30 DAY GROUP BY outcome"}'`;

export const ERROR_DOCS: Record<ServerErrorCode, ErrorDoc> = {
  "err:svc:authentication:missing": {
    whatHappened:
      "The request reached the API without an `Authorization` header, so the API could not tell who is calling and refused it.",
    howToFix: [
      `Add the header \`${AUTHORIZATION_HEADER_EXAMPLE}\` to every request, with your root key in place of \`<API_KEY>\`.`,
      `Get a root key from the dashboard, or create one with \`${createRootKeyCommand()}\`.`,
      "If the header is set in your code but still missing here, check what sits between the client and the API.",
    ],
    example: LIST_KEYS_EXAMPLE,
    commonMistakes: CREDENTIAL_CAUSES,
  },
  "err:svc:authentication:malformed": {
    whatHappened:
      "An `Authorization` header arrived, but it is not the word `Bearer`, exactly one space, then the key.",
    howToFix: [
      `Send exactly \`${AUTHORIZATION_HEADER_EXAMPLE}\`: \`Bearer\` with a capital B, one space, the key, nothing after it.`,
      "Do not quote the key, and do not send another scheme such as `Basic`.",
    ],
    example: `Authorization: ${bearer("ks_root_…")}`,
    commonMistakes: [
      ...CREDENTIAL_CAUSES,
      "The scheme is written `bearer` or `BEARER`; it is case-sensitive here.",
      "Two spaces, a tab or a line break were copied along with the key.",
    ],
  },
  "err:svc:authentication:key_not_found": {
    whatHappened:
      "The key in the `Authorization` header is not a root key this API knows. It may be mistyped, revoked, or issued elsewhere; the answer is the same in every case so that it tells nothing about which keys exist.",
    howToFix: [
      "Copy the key again from where you stored it when it was created; it is shown only once.",
      "Check that you call the API of the environment the key belongs to.",
      `If the key was revoked, create a new one with \`${createRootKeyCommand()}\` and replace it everywhere.`,
    ],
    example: AUTHORIZATION_HEADER_EXAMPLE,
    commonMistakes: CREDENTIAL_CAUSES,
  },
  "err:svc:authorization:insufficient_permissions": {
    whatHappened:
      "The root key is valid, but it lacks the permission to read keys: `api.*.read_key` for every API, or `api.<apiId>.read_key` for one.",
    howToFix: [
      "To list keys without an `apiId`, use a root key with `api.*.read_key`.",
      "To list the keys of one API, pass its `apiId` and use a key with `api.*.read_key` or `api.<apiId>.read_key`.",
      `Create such a key with \`${createRootKeyCommand({ permissions: [READ_KEYS_PERMISSION] })}\`.`,
    ],
    commonMistakes: [
      "A key scoped to one API is used to list the keys of all APIs (no `apiId` in the body).",
      "The `apiId` in the body is not the API the key's permission names.",
    ],
  },
  "err:svc:authorization:key_disabled": {
    whatHappened: "The root key exists but has been disabled, so it may not be used until it is enabled again.",
    howToFix: [
      "Enable it with `npm run admin -- root-key enable <KEY_ID>`, or use another root key.",
      "Find its id and state with `npm run admin -- root-key list`.",
    ],
    commonMistakes: [
      "A key disabled on purpose (for example during an incident) is still configured in a client.",
      "A disabled key is confused with a revoked one: a revoked key can never be used again.",
    ],
  },
  "err:svc:application:invalid_input": {
    whatHappened:
      "The request body is not valid JSON or does not match the operation's schema. `error.errors` lists every problem with its `location` (like `body.limit`) and how to fix it.",
    howToFix: [
      "Send a JSON object. Every field is optional: `apiId` (string), `limit` (whole number from 1 to 100), `cursor` (from the previous page), `externalId` (string).",
      "Read `error.errors`: each entry names the field and what it expects.",
    ],
    example: LIST_KEYS_EXAMPLE,
    commonMistakes: [
      'A number sent as a string, like `"limit": "10"`.',
      "A field name in another spelling, like `api_id` or `pageSize`: unknown fields are refused.",
      "A cursor that was edited, truncated or made up instead of copied from `pagination.cursor`.",
      "A form-encoded body instead of JSON.",
    ],
  },
  "err:svc:data:api_not_found": {
    whatHappened: "The `apiId` in the body names no API of the root key's workspace.",
    howToFix: [
      "Use the id of one of your workspace's APIs; `npm run admin -- apis list` shows them.",
      "Leave `apiId` out to list the keys of every API.",
    ],
    commonMistakes: [
      "The API belongs to another workspace than the root key.",
      "A typo in the id, or an id from another environment.",
    ],
  },
  "err:svc:data:key_not_found": {
    whatHappened:
      "`keys.getKey` found no key with this `keyId` in the root key's workspace, or `keys.whoami` found no key with this secret that the root key may read. `keys.whoami` gives this same answer when the root key lacks `api.*.read_key` (or `api.<apiId>.read_key`) on the key's API, so that it tells nothing about which keys exist.",
    howToFix: [
      "Use a `keyId` from the key list (`keys.listKeys` or `apis.listKeys`) of the same workspace.",
      "For `keys.whoami`, send the whole secret exactly as it was handed out, prefix included.",
      "Check that the root key holds `api.*.read_key`, or `api.<apiId>.read_key` for the key's API.",
    ],
    commonMistakes: [
      "The key belongs to another workspace than the root key.",
      "The secret was trimmed, re-encoded or copied with a stray character.",
    ],
  },
  "err:svc:data:role_not_found": {
    whatHappened:
      "The request named a role the workspace does not have: `permissions.getRole`, `permissions.deleteRole` and `permissions.setRolePermissions` by its id or name, or a key operation (`keys.createKey`, `keys.updateKey`, `keys.addRoles`, `keys.removeRoles`, `keys.setRoles`) by its name. Key operations never create roles; nothing was changed.",
    howToFix: [
      "Use a role id or name from `permissions.listRoles`.",
      "Create the role first (`permissions.createRole`, or `npm run admin -- roles create --name NAME`), then repeat the request.",
    ],
    commonMistakes: [
      "The role name differs in case or spelling.",
      "The role belongs to another workspace, or was deleted.",
    ],
  },
  "err:svc:data:permission_not_found": {
    whatHappened:
      "The request named a permission the workspace does not have: `permissions.getPermission` and `permissions.deletePermission` by its id or slug, or `keys.removePermissions`, which had nothing to remove. Nothing was changed.",
    howToFix: ["Use a permission id or slug from `permissions.listPermissions`."],
    commonMistakes: [
      "The slug differs in spelling from the one the key carries.",
      "The permission was deleted, or belongs to another workspace.",
    ],
  },
  "err:svc:data:identity_not_found": {
    whatHappened:
      "`identities.getIdentity`, `identities.updateIdentity` or `identities.deleteIdentity` found no live identity with this id or external id in the root key's workspace. A deleted identity is found by none of them.",
    howToFix: [
      "Use an identity id or external id from `identities.listIdentities`.",
      "To give a deleted identity's external id a new life, create it again with `identities.createIdentity`.",
    ],
    commonMistakes: [
      "The external id was given with another case or a stray space.",
      "The identity was deleted, or belongs to another workspace.",
    ],
  },
  "err:svc:data:identity_already_exists": {
    whatHappened:
      "`identities.createIdentity` was given an `externalId` that a live identity of the workspace already has. An external id names one identity, so nothing was created.",
    howToFix: [
      "Use the existing identity: `identities.getIdentity` finds it by the external id, `identities.updateIdentity` changes its meta and rate limits.",
      "Or create the identity under another `externalId`.",
    ],
    example: `curl -X POST {origin}/v2/identities.getIdentity \\
  -H "${AUTHORIZATION_HEADER_EXAMPLE}" \\
  -H "Content-Type: application/json" \\
  -d '{"identity": "user_123"}'`,
    commonMistakes: [
      "A retry of a create that had in fact succeeded (its answer was lost to a timeout): the identity is there.",
      "Two programs creating the same user's identity at once.",
    ],
  },
  "err:svc:data:permission_already_exists": {
    whatHappened:
      "`permissions.createPermission` was given a `slug` the workspace already has (slugs are compared without regard to case, as on the real service). Nothing was created.",
    howToFix: [
      "Use the existing permission: `permissions.getPermission` finds it by its slug.",
      "Or choose another `slug`; the `name` may repeat, the slug may not.",
    ],
    commonMistakes: [
      "A slug that differs only in case from an existing one, such as `Documents.Read` beside `documents.read`.",
      "A permission created already by `keys.addPermissions` or `permissions.createRole`, which create the ones they name.",
    ],
  },
  "err:svc:data:role_already_exists": {
    whatHappened:
      "`permissions.createRole` was given a `name` the workspace already has a role of. Nothing was created.",
    howToFix: [
      "Use the existing role: `permissions.getRole` finds it by name, `permissions.setRolePermissions` replaces its permissions.",
      "Or choose another name.",
    ],
    commonMistakes: [
      "A retry of a create that had in fact succeeded.",
      "A role created already by `keys.migrateKeys`.",
    ],
  },
  "err:svc:data:migration_not_found": {
    whatHappened:
      "`keys.migrateKeys` named a `migrationId` the workspace does not have. A migration says how the imported keys' hashes were made; nothing was imported.",
    howToFix: [
      "On the reference server, create one with `npm run admin -- migrations create --algorithm sha256` (or `github.com/seamapi/prefixed-api-key`) and use the id it prints.",
      "On the real service, use the migration id its support staff gave you.",
    ],
    commonMistakes: ["A migration id of another workspace.", "The migration's name where its id is asked."],
  },
  "err:svc:data:ratelimit_namespace_not_found": {
    whatHappened:
      "A rate-limit operation named a namespace (by name or id) that the root key's workspace does not have, or that was deleted. `ratelimit.limit` and `ratelimit.multiLimit` create a missing namespace instead, when the root key holds `ratelimit.*.create_namespace`; the override operations never do.",
    howToFix: [
      "Check the namespace's name or id (ids start with `rlns_`).",
      "Create the namespace first: limit once with a root key that holds `ratelimit.*.create_namespace`, or `npm run admin -- namespaces create --name N`.",
    ],
    commonMistakes: ["The name differs in case or has a stray space.", "The namespace belongs to another workspace."],
  },
  "err:svc:data:ratelimit_override_not_found": {
    whatHappened:
      "No override of this namespace matches the identifier, or the root key may not read it: `ratelimit.getOverride` answers both alike, so that no one can tell which identifiers have overrides. `ratelimit.deleteOverride` needs the override's identifier exactly as it was set, wildcards included.",
    howToFix: [
      "List the namespace's overrides with `ratelimit.listOverrides` and use an identifier from there.",
      "Check that the root key holds `ratelimit.*.read_override` (or the namespace's own) to read one.",
    ],
    commonMistakes: [
      "Deleting `premium_user1` when the override was set for `premium_*`.",
      "The override was deleted already.",
    ],
  },
  "err:svc:data:ratelimit_namespace_gone": {
    whatHappened:
      "The namespace was deleted: `ratelimit.limit` and `ratelimit.multiLimit` refuse it (its name is not free for a new one, as on the real service), while its history stays readable in `analytics.getRatelimits`.",
    howToFix: ["Limit in another namespace: a new name creates one when the root key may create namespaces."],
    commonMistakes: ["A namespace deleted with the admin CLI's `namespaces delete` is still named by a client."],
  },
  "err:user:bad_request:request_body_too_large": {
    whatHappened: "The request body is larger than 1 MiB, the most this API reads.",
    howToFix: [
      "Send only the fields the operation takes; a list request is a few dozen bytes.",
      "Page through results with `limit` and `cursor` instead of sending large filters.",
    ],
    commonMistakes: ["A file or a previous response is sent as the body by mistake."],
  },
  "err:user:too_many_requests:rate_limited": {
    whatHappened:
      "The root key has used up the requests its rate limit allows in the current window. The `Retry-After` header says in how many seconds a request is allowed again.",
    howToFix: [
      "Wait the number of seconds in `Retry-After`, then retry.",
      "Retry with exponential backoff instead of at once in a loop.",
      `Give busy clients their own root key with a fitting limit: \`${createRootKeyCommand({ ratelimit: "1000/1m" })}\`.`,
    ],
    commonMistakes: [
      "A retry loop that ignores `Retry-After` and keeps the key limited.",
      "Many workers sharing one root key and its single limit.",
    ],
  },
  "err:user:bad_request:invalid_analytics_query": {
    whatHappened:
      "The `query` of `analytics.getVerifications` or `analytics.getRatelimits` could not be parsed or run: a syntax error, an unknown column, or a type mismatch. `error.detail` carries the engine's message.",
    howToFix: [
      "Read `error.detail`: it names the token or column at fault.",
      "Check the column names of the public tables: `time`, `key_id`, `key_space_id`, `external_id`, `outcome`, `region`, `tags`, `spent_credits`, and `count` in the aggregated tables (verifications); `time`, `namespace_id`, `identifier`, `passed`, `latency`, `override_id`, `limit`, `remaining`, `reset_at`, `tokens`, and `total`, `total_tokens`, `passed_tokens` in the aggregated tables (rate limits).",
      'Write `"any"(x)` for `any(x)`.',
    ],
    example: ANALYTICS_EXAMPLE,
    commonMistakes: [
      "A recursive CTE (`WITH RECURSIVE`), which analytics queries do not support.",
      "Grouping by an `arrayJoin(…)` alias in the same SELECT: unnest in a subquery first.",
    ],
  },
  "err:user:bad_request:invalid_analytics_query_type": {
    whatHappened:
      "Analytics queries may only read: one `SELECT` (with `WITH`, `UNION`, `EXCEPT`, subqueries and window functions).",
    howToFix: ["Send a single `SELECT` statement, without a trailing second statement."],
    example: ANALYTICS_EXAMPLE,
    commonMistakes: [
      "Two statements separated by `;`.",
      "`INSERT`, `CREATE`, `SET`, `PRAGMA`, `ATTACH`, `COPY` or `INSTALL` sent as a query.",
    ],
  },
  "err:user:bad_request:invalid_analytics_table": {
    whatHappened:
      "The query reads something other than its operation's five public tables: `key_verifications_v1` and `key_verifications_per_{minute,hour,day,month}_v1` for `analytics.getVerifications`, `ratelimits_v1` and `ratelimits_per_{minute,hour,day,month}_v1` for `analytics.getRatelimits` (or a CTE of its own).",
    howToFix: [
      "Read from the public tables by their bare names; your workspace's rows are selected automatically.",
      "Use the aggregated tables (`…_per_hour_v1` and so on) for usage over time: they are much faster.",
    ],
    example: ANALYTICS_EXAMPLE,
    commonMistakes: [
      "A schema-qualified or physical name such as `default.key_verifications_raw_v2`.",
      "A table of the other analytics operation: each reads its own five tables.",
      "Table functions (`read_csv`, `read_parquet`, `glob`) or system catalogs (`system.*`, `information_schema.*`).",
    ],
  },
  "err:user:bad_request:invalid_analytics_function": {
    whatHappened: "The query calls a function outside the documented list; `error.detail` names it.",
    howToFix: [
      "Use the documented functions: aggregates (`count sum avg min max any groupArray groupUniqArray uniq uniqExact quantile countIf sumIf`), dates (`now today toStartOfHour toStartOfDay fromUnixTimestamp64Milli …`), strings, arrays (`has hasAny hasAll arrayJoin arrayFilter`) and conversions.",
    ],
    example: ANALYTICS_EXAMPLE,
    commonMistakes: [
      "A function of another SQL dialect, such as `strftime` or `getenv`.",
      "ClickHouse's `avgMerge` or `quantilesTDigestMerge` on the rate-limit tables' latency states: no -Merge function is allowed (read `latency` from `ratelimits_v1`: `avg(latency)`, `quantile(0.99)(latency)`).",
    ],
  },
  "err:user:unprocessable_entity:query_execution_timeout": {
    whatHappened:
      "The analytics query ran longer than the time limit (30 s unless the server was started with `--analytics-timeout`) and was stopped.",
    howToFix: [
      "Narrow the time range with a `WHERE time >= …` condition.",
      "Read an aggregated table (`key_verifications_per_hour_v1`, `…_per_day_v1`) instead of the raw one.",
    ],
    commonMistakes: ["A join of a table with itself without a join condition."],
  },
  "err:user:unprocessable_entity:query_memory_limit_exceeded": {
    whatHappened: "The analytics query (or its result) needs more memory than the limit of 1 GB.",
    howToFix: ["Aggregate in the query instead of returning raw rows.", "Narrow the time range or the keys."],
    commonMistakes: ["`SELECT *` over the raw table without a `LIMIT`."],
  },
  "err:user:unprocessable_entity:query_rows_limit_exceeded": {
    whatHappened: "The analytics query returns more than 10 million rows, the most one answer may hold.",
    howToFix: ["Aggregate with `GROUP BY`, or add a `LIMIT`."],
    commonMistakes: ["A cross join of two tables."],
  },
  "err:user:too_many_requests:query_quota_exceeded": {
    whatHappened: "The workspace has sent 1000 analytics queries in the last hour, its quota.",
    howToFix: [
      "Wait the number of seconds in `Retry-After`, then retry.",
      "Cache answers instead of asking again for the same range.",
    ],
    commonMistakes: ["A dashboard refreshing every chart every second."],
  },
  "err:svc:application:precondition_failed": {
    whatHappened:
      "The request is well formed and allowed, but asks for something the key or its workspace is not set up for: a named rate limit neither the key nor its identity has, or the plaintext of keys that are not stored recoverable.",
    howToFix: [
      "Read the `detail`: it names the key, and the identity and external id when there is one.",
      "Name one of the key's (or its identity's) rate limits, or give `limit` and `duration` for a limit of the request's own.",
      "Leave `decrypt` out: this server stores only a hash of each key, so there is no plaintext to return.",
    ],
    commonMistakes: [
      "A rate limit's name spelled differently from the one set on the key.",
      "A rate limit set on another identity than the key's.",
    ],
  },
  "err:svc:application:protected_resource": {
    whatHappened: "`apis.deleteApi` was asked to delete an API whose delete protection is on, so nothing was deleted.",
    howToFix: [
      "Turn the protection off first, if the API really is to go: `npm run admin -- apis update api_… --delete-protection off`.",
      "Check the `apiId`: protection is usually on for the API that serves production keys.",
    ],
    commonMistakes: [
      "A cleanup script deleting every API of a workspace, the protected production one with the test ones.",
    ],
  },
  "err:user:bad_request:permissions_query_syntax_error": {
    whatHappened:
      "The `permissions` query of `keys.verifyKey` could not be parsed. The `detail` names the position (counted from 0) and what was expected there.",
    howToFix: [
      "Write permission names joined by `AND` and `OR`, grouped with parentheses: `documents.read AND (users.view OR users.admin)`.",
      "Close every parenthesis, and put a permission on both sides of each operator.",
    ],
    example: '{"key": "sk_live_…", "permissions": "documents.read AND (users.view OR users.admin)"}',
    commonMistakes: [
      "An operator at the start or end of the query.",
      "Empty parentheses `()`.",
      "A character outside letters, digits and `_ . : * - /`.",
    ],
  },
  "err:user:bad_request:query_range_exceeds_retention": {
    whatHappened:
      "The analytics query's lower time bound lies further back than the workspace's retention, which `error.detail` names: 30 days unless the workspace has its own.",
    howToFix: [
      "Ask for at most the retention, such as the last 30 days: `WHERE time >= now() - INTERVAL 30 DAY`.",
      "Leave the lower bound out.",
      "On the reference server, give the workspace a longer retention: `npm run admin -- workspaces update --retention-days 365`.",
    ],
    example: ANALYTICS_EXAMPLE,
    commonMistakes: ["`INTERVAL 60 DAY` or an old fixed date as the lower bound."],
  },
  "err:svc:application:unexpected_error": {
    whatHappened: "Something failed inside the API while handling the request. It is not caused by the request itself.",
    howToFix: [
      "Retry after a moment, with backoff.",
      "If it keeps happening, report it with the `meta.requestId` of the response: the server's log has the details under that id.",
    ],
    commonMistakes: ["Retrying at once in a tight loop while the server is failing."],
  },
  "err:svc:application:service_unavailable": {
    whatHappened:
      "A service the API needs to answer could not answer for a moment. The real service says so when its analytics database cannot be reached; the reference server, when its analytics store is still catching up with the verifications recorded while it was stopped (or made in bulk by the admin CLI's `traffic`), or when its last copy failed and waits to be tried again. The `detail` says which, and `Retry-After` when to ask again.",
    howToFix: [
      "Retry after the seconds in the `Retry-After` header.",
      "On the reference server, a long wait after a bulk load is the copy of the new verifications: `npm run admin -- traffic` copies them itself when the server is not running.",
    ],
    commonMistakes: ["Retrying at once in a tight loop instead of after `Retry-After`."],
  },
  "err:keyscope:routing:not_found": {
    whatHappened: "No operation of the API lives at the requested path.",
    howToFix: ["Check the path: the key list is `POST /v2/keys.listKeys`, the health check `GET /v2/liveness`."],
    commonMistakes: [
      "The real service's path `/v2/apis.listKeys` is sent to the reference server, or the other way round.",
    ],
  },
  "err:keyscope:routing:method_not_allowed": {
    whatHappened:
      "The path names an operation, but not with this HTTP method. The `Allow` header lists the method it takes.",
    howToFix: ["Use the method in the `Allow` header: `POST` for `/v2/keys.listKeys`, `GET` for `/v2/liveness`."],
    commonMistakes: ["Opening an operation's address in a browser, which sends `GET`."],
  },
  "err:keyscope:proxy:upstream_unreachable": {
    whatHappened:
      "Keyscope runs as a proxy (`--upstream`) and could not get an answer from the upstream API: the connection failed, was refused, or timed out.",
    howToFix: [
      "Check the `--upstream` address: scheme, host and port.",
      "Check that this machine can reach it, for example with `curl <upstream>/v2/liveness`.",
      "If the address is wrong, stop the proxy and start it again with `npm start -- --upstream <the API's origin>`.",
    ],
    commonMistakes: ["A typo in the upstream host, or `http` where the upstream only speaks `https`."],
  },
  "err:keyscope:proxy:upstream_redirect": {
    whatHappened:
      "Keyscope runs as a proxy (`--upstream`) and the upstream answered with a redirect to another origin (`error.errors[]` names it), often a sign-in page. A browser cannot follow it with the key: it drops `Authorization` on the way, and the other origin sends no CORS headers.",
    howToFix: [
      "If the redirect leads to the API's real address, start the proxy with that address as `--upstream`.",
      "If it leads to a sign-in page, the upstream sits behind single sign-on: point `--upstream` at an address that reaches the API directly.",
    ],
    commonMistakes: [
      "`--upstream` with `http://` where the API redirects to `https://`.",
      "A gateway that requires a browser sign-in in front of the API.",
    ],
  },
};
