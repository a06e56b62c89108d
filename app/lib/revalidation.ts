import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";

/**
 * After a form submission (the contact fetcher), Remix would by default load every route's data
 * again. This page's loaders hold configuration and the URL's own flag, nothing a submission
 * changes, so that request only adds a way to fail: on a phone in a tunnel, a failed data request
 * would replace the page with the error screen and lose what the visitor typed (decision 026).
 * Navigations keep Remix's default.
 */
export function revalidateOnNavigationOnly({
  formMethod,
  defaultShouldRevalidate,
}: Pick<ShouldRevalidateFunctionArgs, "formMethod" | "defaultShouldRevalidate">): boolean {
  return formMethod === undefined && defaultShouldRevalidate;
}
