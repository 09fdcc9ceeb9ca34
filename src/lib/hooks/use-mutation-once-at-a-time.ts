import { useMutation, type DefaultError, type UseMutationOptions, type UseMutationResult } from "@tanstack/react-query";
import { useRef } from "react";

/**
 * useMutation whose `mutate` does nothing while its last request is under way. `isPending` disables a form's button
 * only at React's next render, which the second click of a double click can come before (Chromium runs input
 * first): the request went twice (a second reroll, whose secret nobody saw; credits added twice).
 */
export function useMutationOnceAtATime<TData, TVariables, TContext>(
  options: UseMutationOptions<TData, DefaultError, TVariables, TContext>,
): UseMutationResult<TData, DefaultError, TVariables, TContext> {
  const underWay = useRef(false);
  const mutation = useMutation<TData, DefaultError, TVariables, TContext>({
    ...options,
    // The hook's own onSettled: it runs whatever became of the form since (closed, reset).
    onSettled: (...args) => {
      underWay.current = false;
      return options.onSettled?.(...args);
    },
  });
  const mutate: typeof mutation.mutate = (...args) => {
    if (underWay.current) return;
    underWay.current = true;
    mutation.mutate(...args);
  };
  return { ...mutation, mutate };
}
