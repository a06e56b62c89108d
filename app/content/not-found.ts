import { site } from "./site";
import type { StatusPageText } from "./types";

export const notFoundText = {
  code: "404",
  heading: "Page Not Found",
  title: `Page Not Found | ${site.brandName}`,
  message: "Oops! This page doesn't exist or has moved.",
  homeLink: "Return to Home",
  consoleMessage: "404 Error: User attempted to access non-existent route:",
} as const satisfies StatusPageText & { consoleMessage: string };

/** The view for an unhandled error (docs/requirements.md, section 5). */
export const errorText = {
  heading: "Unexpected Application Error!",
} as const;
