import { appEvent } from "~/lib/events.server";

/**
 * One HTML document served: its status, and whether it was made at build and served as a file
 * (the home page and its success variant) or rendered for the request.
 */
export const documentServed = appEvent<{ status: number; source: "prerendered" | "rendered" }>(
  "document-served",
);
