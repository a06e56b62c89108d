import { appEvent } from "~/lib/events.server";

/** One HTML document served, made at build ("prerendered") or for the request. */
export const documentServed = appEvent<{ status: number; source: "prerendered" | "rendered" }>(
  "document-served",
);
