import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";

/**
 * Not after a submission: no loader holds anything it changes, and a failed reload would replace
 * the page with the error screen, losing what the visitor typed (decision 026).
 */
export function revalidateOnNavigationOnly({
  formMethod,
  defaultShouldRevalidate,
}: Pick<ShouldRevalidateFunctionArgs, "formMethod" | "defaultShouldRevalidate">): boolean {
  return formMethod === undefined && defaultShouldRevalidate;
}
