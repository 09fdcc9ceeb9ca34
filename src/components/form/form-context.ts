import { createFormHookContexts } from "@tanstack/react-form";

/** The contexts TanStack Form hands a field's component and the form's: one pair for every form of the dashboard. */
export const { fieldContext, formContext, useFieldContext, useFormContext } = createFormHookContexts();
