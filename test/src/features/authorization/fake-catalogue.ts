import { vi } from "vitest";

/**
 * A stubbed service that keeps a workspace's catalogue in memory and answers the permissions.* operations as the
 * services do: the permission checked first (a 403 naming it), then the lookup (404) or the write (409 for a name in
 * use), lists paged by id with a cursor and searched in any case. Records every request.
 */

interface StoredPermission {
  id: string;
  name: string;
  slug: string;
  description?: string;
}

interface StoredRole {
  id: string;
  name: string;
  description?: string;
  /** Permission ids. */
  permissions: string[];
}

export interface FakeCatalogue {
  permissions: StoredPermission[];
  roles: StoredRole[];
  sent: { path: string; body: Record<string, unknown> }[];
  /** The rbac actions the root key may take (`read_role`, …); all of them unless a test says otherwise. */
  granted: Set<string>;
  /** Answers a path otherwise (a failure), instead of the catalogue. */
  override: Map<string, () => Response>;
}

const ALL_ACTIONS = [
  "read_permission",
  "read_role",
  "create_permission",
  "delete_permission",
  "create_role",
  "delete_role",
  "add_permission_to_role",
  "remove_permission_from_role",
];

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

const ok = (data: unknown, pagination?: { cursor?: string; hasMore: boolean }) =>
  json(200, { meta: { requestId: "req_Fake1" }, data, ...(pagination && { pagination }) });

function refused(status: number, title: string, kind: string, detail: string): Response {
  return json(status, {
    meta: { requestId: "req_Fake2" },
    error: { status, title, detail, type: `https://unkey.com/docs/errors/unkey/${kind}` },
  });
}

export const missing = (action: string) =>
  refused(
    403,
    "Insufficient Permissions",
    "authorization/insufficient_permissions",
    `Missing permission: 'rbac.*.${action}'`,
  );

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${(++counter).toString().padStart(6, "0")}`;

export function fakeCatalogue(
  seed: { permissions?: string[]; roles?: { name: string; permissions?: string[] }[] } = {},
) {
  const catalogue: FakeCatalogue = {
    permissions: [],
    roles: [],
    sent: [],
    granted: new Set(ALL_ACTIONS),
    override: new Map(),
  };
  const permissionOf = (slug: string) => {
    const found = catalogue.permissions.find((permission) => permission.slug.toLowerCase() === slug.toLowerCase());
    if (found !== undefined) return found;
    const made = { id: nextId("perm"), name: slug, slug };
    catalogue.permissions.push(made);
    return made;
  };
  for (const slug of seed.permissions ?? []) permissionOf(slug);
  for (const role of seed.roles ?? [])
    catalogue.roles.push({
      id: nextId("role"),
      name: role.name,
      permissions: (role.permissions ?? []).map((slug) => permissionOf(slug).id),
    });

  const permissionJson = (permission: StoredPermission) => ({ ...permission });
  const roleJson = (role: StoredRole) => {
    const permissions = role.permissions
      .map((id) => catalogue.permissions.find((permission) => permission.id === id))
      .filter((permission) => permission !== undefined)
      .map(permissionJson);
    return {
      id: role.id,
      name: role.name,
      ...(role.description !== undefined && { description: role.description }),
      ...(permissions.length > 0 && { permissions }),
    };
  };
  function page<T extends { id: string }>(
    items: T[],
    body: Record<string, unknown>,
    matches: (item: T, text: string) => boolean,
  ) {
    const limit = typeof body.limit === "number" ? body.limit : 100;
    const cursor = typeof body.cursor === "string" ? body.cursor : "";
    const text = typeof body.search === "string" ? body.search.toLowerCase() : "";
    const found = [...items]
      .sort((a, b) => a.id.localeCompare(b.id))
      .filter((item) => item.id > cursor && (text === "" || matches(item, text)));
    const shown = found.slice(0, limit);
    const hasMore = found.length > limit;
    return { shown, pagination: hasMore ? { cursor: shown.at(-1)?.id ?? "", hasMore } : { hasMore } };
  }
  const contains = (text: string, ...fields: (string | undefined)[]) =>
    fields.some((field) => field?.toLowerCase().includes(text) === true);

  const operations: Record<string, { needs: string[]; answer: (body: Record<string, unknown>) => Response }> = {
    "/v2/permissions.listPermissions": {
      needs: ["read_permission"],
      answer: (body) => {
        const { shown, pagination } = page(catalogue.permissions, body, (permission, text) =>
          contains(text, permission.id, permission.name, permission.slug, permission.description),
        );
        return ok(shown.map(permissionJson), pagination);
      },
    },
    "/v2/permissions.listRoles": {
      needs: ["read_role"],
      answer: (body) => {
        const { shown, pagination } = page(catalogue.roles, body, (role, text) =>
          contains(text, role.id, role.name, role.description),
        );
        return ok(shown.map(roleJson), pagination);
      },
    },
    "/v2/permissions.getPermission": {
      needs: ["read_permission"],
      answer: (body) => {
        const found = catalogue.permissions.find(
          (permission) => permission.id === body.permission || permission.slug === body.permission,
        );
        return found === undefined ? permissionNotFound() : ok(permissionJson(found));
      },
    },
    "/v2/permissions.getRole": {
      needs: ["read_role"],
      answer: (body) => {
        const found = catalogue.roles.find((role) => role.id === body.role || role.name === body.role);
        return found === undefined ? roleNotFound() : ok(roleJson(found));
      },
    },
    "/v2/permissions.createPermission": {
      needs: ["create_permission"],
      answer: (body) => {
        const slug = String(body.slug);
        if (catalogue.permissions.some((permission) => permission.slug.toLowerCase() === slug.toLowerCase()))
          return refused(
            409,
            "Conflicting Resource",
            "data/permission_already_exists",
            `A permission with slug '${slug}' already exists`,
          );
        const made = {
          id: nextId("perm"),
          name: String(body.name),
          slug,
          ...(typeof body.description === "string" && { description: body.description }),
        };
        catalogue.permissions.push(made);
        return ok({ permissionId: made.id });
      },
    },
    "/v2/permissions.createRole": {
      needs: ["create_role"],
      answer: (body) => {
        const name = String(body.name);
        if (catalogue.roles.some((role) => role.name === name))
          return refused(
            409,
            "Conflicting Resource",
            "data/role_already_exists",
            `A role with name '${name}' already exists`,
          );
        const made = {
          id: nextId("role"),
          name,
          ...(typeof body.description === "string" && { description: body.description }),
          permissions: [],
        };
        catalogue.roles.push(made);
        return ok({ roleId: made.id });
      },
    },
    "/v2/permissions.deletePermission": {
      needs: ["delete_permission"],
      answer: (body) => {
        const found = catalogue.permissions.find(
          (permission) => permission.id === body.permission || permission.slug === body.permission,
        );
        if (found === undefined) return permissionNotFound();
        catalogue.permissions = catalogue.permissions.filter((permission) => permission !== found);
        for (const role of catalogue.roles) role.permissions = role.permissions.filter((id) => id !== found.id);
        return ok({});
      },
    },
    "/v2/permissions.deleteRole": {
      needs: ["delete_role"],
      answer: (body) => {
        const found = catalogue.roles.find((role) => role.id === body.role || role.name === body.role);
        if (found === undefined) return roleNotFound();
        catalogue.roles = catalogue.roles.filter((role) => role !== found);
        return ok({});
      },
    },
    "/v2/permissions.setRolePermissions": {
      needs: ["add_permission_to_role", "remove_permission_from_role"],
      answer: (body) => {
        const found = catalogue.roles.find((role) => role.id === body.roleId);
        if (found === undefined) return roleNotFound();
        const slugs = (body.permissions as string[]).slice().sort();
        found.permissions = slugs.map((slug) => permissionOf(slug).id);
        return ok(slugs.map((slug) => permissionJson(permissionOf(slug))));
      },
    },
  };

  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
      const body = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as Record<string, unknown>;
      catalogue.sent.push({ path, body });
      const override = catalogue.override.get(path);
      if (override !== undefined) return Promise.resolve(override());
      const operation = operations[path];
      if (operation === undefined) return Promise.resolve(json(404, "no such route"));
      const lacking = operation.needs.find((action) => !catalogue.granted.has(action));
      return Promise.resolve(lacking === undefined ? operation.answer(body) : missing(lacking));
    }),
  );
  return catalogue;
}

const permissionNotFound = () =>
  refused(404, "Not Found", "data/permission_not_found", "The requested permission does not exist.");
const roleNotFound = () => refused(404, "Not Found", "data/role_not_found", "The requested role does not exist.");

/** The paths sent, in order, of the operations that change the catalogue (or probe it). */
export function changesSent(catalogue: FakeCatalogue): { path: string; body: Record<string, unknown> }[] {
  return catalogue.sent.filter((call) => !/\.(list|get)(Roles|Permissions|Role|Permission)$/.test(call.path));
}
