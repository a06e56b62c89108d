/** Requests and lines of the undelivered file, shared by the suites of its two modules. */
import type { ContactRequest } from "~/lib/contact/schema";
import { deliveredMarker, undeliveredEntry } from "~/lib/contact/undelivered-format.server";

export const request = (overrides: Partial<ContactRequest> = {}): ContactRequest => ({
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "",
  company: "Analytical Engines",
  website: "",
  companySize: "",
  industry: "",
  message: "We want to automate our invoicing.",
  ...overrides,
});

export const at = new Date("2026-01-02T03:04:05.000Z");

/** The entry the server keeps when the function failed (`http` 500) or timed out. */
export const failed = (req: ContactRequest, reason: "http" | "timeout" = "http") =>
  undeliveredEntry(req, { reason, ...(reason === "http" ? { status: 500 } : {}) }, { sink: "supabase", at });

export const delivered = (req: ContactRequest) => deliveredMarker(req, "server", at);
