import * as v from "valibot";
import { rbacTuples } from "../../auth/permissions";
import { ConflictError } from "../../db/conflict-error";
import { createPermission as createStoredPermission } from "../../db/rbac";
import { dataAnswer } from "../../http/answers";
import type { ApiDependencies } from "../../http/api-env";
import { ApiRefusal } from "../../http/api-refusal";
import type { BodySpec } from "../../http/json-body";
import { operation } from "../../http/operation";
import { CATALOGUE_FIXES, descriptionField, slugField } from "./catalogue-fields";

const CREATE_PERMISSION = {
  schema: v.strictObject({
    name: v.pipe(
      v.string("name is required and must be a string"),
      v.minLength(1, "name must not be empty"),
      v.maxLength(512, "name must be at most 512 characters"),
    ),
    slug: slugField("slug"),
    description: v.optional(descriptionField),
  }),
  fixes: {
    name: "Pass a name of 1 to 512 characters, like users.read.",
    slug: "Pass 1 to 128 letters, digits and _ : - . *, like users-read: unique in the workspace, in any case.",
    description: CATALOGUE_FIXES.description,
  },
  example: '{"name": "users.read", "slug": "users-read"}',
} satisfies BodySpec<v.GenericSchema>;

/** `POST /v2/permissions.createPermission` (`rbac.*.create_permission` alone): answers `{permissionId}`; 409 for a slug in use. */
export function createPermission(deps: ApiDependencies) {
  return operation(deps, { body: CREATE_PERMISSION, permission: () => rbacTuples("create_permission") }, async (c) => {
    const { name, slug, description } = c.req.valid("json");
    const workspaceId = c.get("rootKey").workspaceId;
    const permissionId = await deps.store.change((db) => {
      try {
        return createStoredPermission(db, workspaceId, { name, slug, description });
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        throw new ApiRefusal("err:svc:data:permission_already_exists", {
          detail: `A permission with slug '${slug}' already exists in this workspace`,
        });
      }
    });
    return dataAnswer(c, { permissionId });
  });
}
