/**
 * What a lead asks: the eight fields the function receives, in its payload's order. The contact
 * form's validator (`~/lib/contact/schema`) produces one; the lead store, the delivery and the
 * function's client take it without knowing about the form (contact/ depends on leads/, never the
 * reverse: docs/architecture.md).
 */
export interface LeadRequest {
  name: string;
  email: string;
  phone: string;
  company: string;
  website: string;
  companySize: string;
  industry: string;
  message: string;
}
