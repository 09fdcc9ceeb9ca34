import { createFormHook } from "@tanstack/react-form";
import { fieldContext, formContext } from "./form-context";
import { CheckboxField, DateTimeField, NumberField, SelectField, TextAreaField, TextField } from "./fields";

/**
 * Every form of the dashboard on TanStack Form: `useAppForm` owns the field state, the fields below render a label,
 * the control and its problem beside it. Each form's rules are a schema (valibot) its validator reads the values with.
 */
export const { useAppForm, withForm, withFieldGroup } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { TextField, NumberField, DateTimeField, CheckboxField, SelectField, TextAreaField },
  formComponents: {},
});
