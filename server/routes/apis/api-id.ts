import * as v from "valibot";
import type { BodySpec } from "../../http/json-body";
import { apiIdField } from "../keys/key-fields";

/** The body of apis.getApi and apis.deleteApi: one API of the workspace. */

export const API_ID = {
  schema: v.strictObject({ apiId: apiIdField(8) }),
  fixes: { apiId: "Pass the id of an API of your workspace, like api_…." },
  example: '{"apiId": "api_…"}',
} satisfies BodySpec<v.GenericSchema>;
