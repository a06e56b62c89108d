/**
 * Every text the contact form shows: labels, hints, placeholders and the button.
 * Field `name` attributes are part of the contract with the server action and live here too.
 */
export const companySizes = ["1-10", "11-50", "51-200", "201-1000", "1000+"] as const;
export type CompanySize = (typeof companySizes)[number];

export const contactFormLimits = {
  nameMax: 100,
  messageMin: 10,
  messageMax: 2000,
} as const;

export const contactFormText = {
  heading: "Request your free AI assessment",
  intro: "Tell us where the manual work piles up. We reply with concrete next steps, not a sales script.",
  requiredNote: "Fields marked * are required.",
  fields: {
    name: { label: "Full name", placeholder: "Jane Smith", autoComplete: "name" },
    email: { label: "Email", placeholder: "jane@company.com", autoComplete: "email" },
    phone: { label: "Phone", placeholder: "(513) 555-0100", autoComplete: "tel" },
    company: { label: "Company", placeholder: "Acme Inc.", autoComplete: "organization" },
    website: { label: "Website", placeholder: "https://example.com", autoComplete: "url" },
    companySize: { label: "Company size", placeholder: "Select size", autoComplete: "off" },
    industry: { label: "Industry", placeholder: "e.g., Healthcare, Retail, Logistics", autoComplete: "off" },
    message: {
      label: "How can we help?",
      placeholder: "Describe the processes you would like to automate, the tools you use today and your goals.",
      autoComplete: "off",
    },
  },
  companySizeOptionSuffix: " employees",
  optional: "(optional)",
  counterLabel: "characters used",
  submit: "Send Message",
  submitting: "Sending Message...",
} as const;
