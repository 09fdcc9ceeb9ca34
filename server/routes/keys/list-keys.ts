import * as v from "valibot";
import { apiGrants, LIST_KEYS_LIMIT_DEFAULT, LIST_KEYS_LIMIT_MAX, type Pagination } from "../../../src/lib/contract";
import { anyKeyRule, isAllowed, requirePermission, resources, type PermissionRule } from "../../auth/permissions";
import { BASE58_PATTERN } from "../../db/ids";
import type { ListKeysQuery } from "../../db/key-store";
import { createVersionedCache } from "../../db/versioned-cache";
import { okJson } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { keysJson } from "../../keys/key-json";

/** Rendered pages kept until the data changes: about 20 KB each at 100 keys, so at most ~10 MB. */
const CACHED_PAGES = 500;

const CURSOR = new RegExp(`^key_${BASE58_PATTERN}{1,64}$`);

const BODY_FIELDS = {
  apiId: v.optional(v.pipe(v.string("apiId must be a string"), v.nonEmpty("apiId must not be empty"))),
  limit: v.optional(
    v.pipe(
      v.number("limit must be a number"),
      v.integer("limit must be a whole number"),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(LIST_KEYS_LIMIT_MAX, `limit must be at most ${LIST_KEYS_LIMIT_MAX}`),
    ),
  ),
  cursor: v.optional(
    v.pipe(v.string("cursor must be a string"), v.regex(CURSOR, "cursor is not one this server handed out")),
  ),
  externalId: v.optional(
    v.pipe(v.string("externalId must be a string"), v.nonEmpty("externalId must not be empty"), v.maxLength(256)),
  ),
};

const FIXES = {
  apiId:
    "Pass the id of an API of your workspace, like api_… (keys.listKeys also takes no apiId: then it lists every API's keys).",
  limit: `Pass a whole number from 1 to ${LIST_KEYS_LIMIT_MAX}, or leave limit out for ${LIST_KEYS_LIMIT_DEFAULT}.`,
  cursor: "Pass pagination.cursor from the previous page unchanged, or leave cursor out to start at the first page.",
  externalId: "Pass the external id as a non-empty string, or leave externalId out.",
};

const KEYS_LIST_KEYS: BodySpec<v.GenericSchema<unknown, ListKeysBody>> = {
  schema: v.strictObject(BODY_FIELDS),
  fixes: FIXES,
  example: '{"limit": 10}',
};

// The real service's operation names its API and takes what its official client always sends (docs/api.md#operations).
const APIS_LIST_KEYS: BodySpec<v.GenericSchema<unknown, ListKeysBody>> = {
  schema: v.strictObject({
    ...BODY_FIELDS,
    apiId: v.pipe(v.string("apiId is required and must be a string"), v.nonEmpty("apiId must not be empty")),
    decrypt: v.optional(v.boolean("decrypt must be true or false")),
    revalidateKeysCache: v.optional(v.boolean("revalidateKeysCache must be true or false")),
  }),
  fixes: {
    ...FIXES,
    decrypt: "Leave decrypt out or false: this server stores keys as hashes only, so decrypt: true is refused (412).",
    revalidateKeysCache: "Pass true to read past the page cache, false or nothing to use it.",
  },
  example: '{"apiId": "api_…", "limit": 10}',
};

interface ListKeysBody {
  apiId?: string;
  limit?: number;
  cursor?: string;
  externalId?: string;
  decrypt?: boolean;
  revalidateKeysCache?: boolean;
}

/**
 * The two list operations: the seed's `keys.listKeys` (`data.keys`), and the real service's `apis.listKeys`
 * (`apiId` required, `data` the array itself), so the dashboard's real-service path has a real server too.
 */
export type ListOperation = "keys.listKeys" | "apis.listKeys";

/**
 * Reading the keys of an API (of every API without `apiId`): `api.*.read_key` or `api.<apiId>.read_key`, and for the
 * real service's apis.listKeys, as there, reading the API too (`read_api`); or the URN form apis.listKeys takes:
 * reading every key of the key space and the key space itself. The seed's keys.listKeys asks read_key alone.
 */
function listRule(operation: ListOperation, workspaceId: string, apiId: string | undefined): PermissionRule {
  const keySpace = apiId ?? "*";
  const readKeys = resources.anyKeyOf(workspaceId, keySpace, "read_key");
  if (operation === "keys.listKeys") return { oneOfEach: [apiGrants("read_key", apiId)], resource: [readKeys] };
  return {
    oneOfEach: [apiGrants("read_key", apiId), apiGrants("read_api", apiId)],
    resource: [readKeys, resources.keySpace(workspaceId, keySpace, "read_keyspace")],
  };
}

/**
 * `POST /v2/keys.listKeys` (the seed's: `data.keys`) or `/v2/apis.listKeys` (the real service's: `apiId` required,
 * `data` the array itself), checks in the contract's order, then one keyset page.
 */
function listKeys(deps: ApiDependencies, operationName: ListOperation) {
  // Serialising a page is most of a request's cost: a page is rendered once per version of the data (which
  // the admin CLI's commits and this server's own verifications change), whoever asks for it.
  const pages = createVersionedCache<string>(() => deps.store.changeVersion(), CACHED_PAGES);
  const spec = operationName === "apis.listKeys" ? APIS_LIST_KEYS : KEYS_LIST_KEYS;

  function renderPage(query: ListKeysQuery): string {
    const page = deps.store.listKeys(query);
    const lastKeyId = page.rows.at(-1)?.id;
    const pagination: Pagination =
      page.hasMore && lastKeyId !== undefined ? { cursor: lastKeyId, hasMore: true } : { hasMore: false };
    const keys = keysJson(page.rows, operationName === "keys.listKeys" ? "empty name" : "without name");
    const data = operationName === "apis.listKeys" ? keys : `{"keys":${keys}}`;
    return `"data":${data},"pagination":${JSON.stringify(pagination)}`;
  }

  return operation(deps, { body: spec }, (c) => {
    const rootKey = c.get("rootKey");
    const {
      apiId,
      externalId,
      cursor,
      limit = LIST_KEYS_LIMIT_DEFAULT,
      decrypt = false,
      revalidateKeysCache = false,
    } = c.req.valid("json");

    const needed = listRule(operationName, rootKey.workspaceId, apiId);
    const mayRead = isAllowed(rootKey.permissions, needed);
    if (operationName === "apis.listKeys") {
      // As the real service: an API the root key may not read is not found, so nothing tells it exists.
      if (!mayRead || (apiId !== undefined && !deps.store.apiBelongsTo(apiId, rootKey.workspaceId))) {
        throw new ApiRefusal("err:svc:data:api_not_found");
      }
    } else {
      requirePermission(rootKey.permissions, needed);
    }
    // As the real service: decrypting needs its own permission, and keys here are never stored recoverable.
    if (decrypt) {
      requirePermission(rootKey.permissions, anyKeyRule("decrypt_key", rootKey.workspaceId, apiId ?? "*"));
      throw new ApiRefusal("err:svc:application:precondition_failed", {
        detail: "The requested API does not support key encryption.",
      });
    }
    if (apiId !== undefined && !deps.store.apiBelongsTo(apiId, rootKey.workspaceId)) {
      throw new ApiRefusal("err:svc:data:api_not_found");
    }

    const query: ListKeysQuery = { workspaceId: rootKey.workspaceId, apiId, externalId, after: cursor, limit };
    const page = revalidateKeysCache
      ? renderPage(query)
      : pages.get(JSON.stringify([query.workspaceId, apiId, externalId, cursor, limit]), () => renderPage(query));
    return okJson(`{"meta":{"requestId":"${c.get("requestId")}"},${page}}`);
  });
}

/** `POST /v2/keys.listKeys`: the seed's operation, every API's keys unless `apiId` names one. */
export const keysListKeys = (deps: ApiDependencies) => listKeys(deps, "keys.listKeys");

/** `POST /v2/apis.listKeys`: the real service's, mounted with the apis (routes/apis.ts). */
export const apisListKeys = (deps: ApiDependencies) => listKeys(deps, "apis.listKeys");
