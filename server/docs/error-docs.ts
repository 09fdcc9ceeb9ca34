import type { ServerErrorCode } from "../errors";

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
  "The `Bearer` prefix is omitted: the header holds the key alone instead of `Bearer <API_KEY>`.",
  "A proxy or gateway between the client and the API strips the `Authorization` header.",
  "The key has expired or has been revoked.",
  "The key belongs to the wrong environment: a development key sent to production, or the other way round.",
] as const;

const LIST_KEYS_EXAMPLE = `curl -X POST {origin}/v2/keys.listKeys \\
  -H "Authorization: Bearer <API_KEY>" \\
  -H "Content-Type: application/json" \\
  -d '{"limit": 10}'`;

export const ERROR_DOCS: Record<ServerErrorCode, ErrorDoc> = {
  "err:svc:authentication:missing": {
    whatHappened:
      "The request reached the API without an `Authorization` header, so the API could not tell who is calling and refused it.",
    howToFix: [
      "Add the header `Authorization: Bearer <API_KEY>` to every request, with your root key in place of `<API_KEY>`.",
      "Get a root key from the dashboard, or create one with `npm run admin -- root-key create`.",
      "If the header is set in your code but still missing here, check what sits between the client and the API.",
    ],
    example: LIST_KEYS_EXAMPLE,
    commonMistakes: CREDENTIAL_CAUSES,
  },
  "err:svc:authentication:malformed": {
    whatHappened:
      "An `Authorization` header arrived, but it is not the word `Bearer`, exactly one space, then the key.",
    howToFix: [
      "Send exactly `Authorization: Bearer <API_KEY>`: `Bearer` with a capital B, one space, the key, nothing after it.",
      "Do not quote the key, and do not send another scheme such as `Basic`.",
    ],
    example: "Authorization: Bearer ks_root_…",
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
      "If the key was revoked, create a new one with `npm run admin -- root-key create` and replace it everywhere.",
    ],
    example: "Authorization: Bearer <API_KEY>",
    commonMistakes: CREDENTIAL_CAUSES,
  },
  "err:svc:authorization:insufficient_permissions": {
    whatHappened:
      "The root key is valid, but it lacks the permission to read keys: `api.*.read_key` for every API, or `api.<apiId>.read_key` for one.",
    howToFix: [
      "To list keys without an `apiId`, use a root key with `api.*.read_key`.",
      "To list the keys of one API, pass its `apiId` and use a key with `api.*.read_key` or `api.<apiId>.read_key`.",
      "Create such a key with `npm run admin -- root-key create --permissions api.*.read_key`.",
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
      "`keys.getKey` found no key with this `keyId` in the root key's workspace, or `keys.whoami` found no key with this secret.",
    howToFix: [
      "Use a `keyId` from the key list (`keys.listKeys` or `apis.listKeys`) of the same workspace.",
      "For `keys.whoami`, send the whole secret exactly as it was handed out, prefix included.",
    ],
    commonMistakes: [
      "The key belongs to another workspace than the root key.",
      "The secret was trimmed, re-encoded or copied with a stray character.",
    ],
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
      "Give busy clients their own root key with a fitting limit: `npm run admin -- root-key create --ratelimit 1000/1m`.",
    ],
    commonMistakes: [
      "A retry loop that ignores `Retry-After` and keeps the key limited.",
      "Many workers sharing one root key and its single limit.",
    ],
  },
  "err:svc:application:unexpected_error": {
    whatHappened: "Something failed inside the API while handling the request. It is not caused by the request itself.",
    howToFix: [
      "Retry after a moment, with backoff.",
      "If it keeps happening, report it with the `meta.requestId` of the response: the server's log has the details under that id.",
    ],
    commonMistakes: ["Retrying at once in a tight loop while the server is failing."],
  },
  "err:keyscope:routing:not_found": {
    whatHappened: "No operation of the API lives at the requested path.",
    howToFix: ["Check the path: the key list is `POST /v2/keys.listKeys`, the health check `GET /v2/liveness`."],
    commonMistakes: ["The real service's path `/v2/apis.listKeys` is sent to the reference server, or the other way round."],
  },
  "err:keyscope:routing:method_not_allowed": {
    whatHappened: "The path names an operation, but not with this HTTP method. The `Allow` header lists the method it takes.",
    howToFix: ["Use the method in the `Allow` header: `POST` for `/v2/keys.listKeys`, `GET` for `/v2/liveness`."],
    commonMistakes: ["Opening an operation's address in a browser, which sends `GET`."],
  },
  "err:keyscope:proxy:upstream_unreachable": {
    whatHappened:
      "Keyscope runs as a proxy (`--upstream`) and could not get an answer from the upstream API: the connection failed, was refused, or timed out.",
    howToFix: [
      "Check the `--upstream` address: scheme, host and port.",
      "Check that this machine can reach it, for example with `curl <upstream>/v2/liveness`.",
    ],
    commonMistakes: ["A typo in the upstream host, or `http` where the upstream only speaks `https`."],
  },
};
