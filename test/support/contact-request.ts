import { CONTACT_FIELDS } from "~/content/contact-fields";
import type { LeadRequest } from "~/lib/leads/sink.server";

/** Every field of the field table, empty unless given: a field added to the table needs no test changed. */
export function contactRequest(values: Partial<LeadRequest> = {}): LeadRequest {
  return {
    ...(Object.fromEntries(CONTACT_FIELDS.map((field) => [field.name, ""])) as LeadRequest),
    ...values,
  };
}
