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
      placeholder:
        "Describe the processes you would like to automate, the tools you use today and your goals.",
      autoComplete: "off",
    },
  },
  companySizeOptionSuffix: " employees",
  optional: "(optional)",
  counterLabel: "characters used",
  submit: "Send Message",
  submitting: "Sending Message...",
  /**
   * One line under the button: where a visitor reads what happens to what they type (issue 41).
   * The page's name alone: the home page's bytes are budgeted (issue 12), and the footer's link of
   * the same words costs nothing more.
   */
  privacyNotice: { label: "Privacy Policy", href: "/privacy" },
} as const;

/** Field names in the order the spec checks them; the first failure is the one the visitor sees. */
export const contactFieldNames = [
  "name",
  "email",
  "website",
  "message",
  "phone",
  "company",
  "companySize",
  "industry",
] as const;
export type ContactFieldName = (typeof contactFieldNames)[number];

/** The honeypot: a field people never see. Its name is one no password manager or autofill fills. */
export const honeypotField = { name: "hp_ref_code", label: "Leave this field empty" } as const;

/**
 * With JavaScript, the milliseconds from the first keystroke in the form to its submit (a spam
 * signal when very short: decision 042). Without JavaScript it is never sent, and never needed.
 */
export const typingTimeField = { name: "typing_ms" } as const;

/**
 * Validation messages. The first four are the required texts (docs/requirements.md, section 4) to the letter;
 * the rest cover what only a hand-made request can send (the browser's maxLength and select stop them).
 */
export const contactValidationMessages = {
  name: "Please enter your full name.",
  nameTooLong: "Please keep your name to 100 characters or fewer.",
  email: "Please enter a valid email address.",
  website: "Please enter a valid website URL (e.g., https://example.com)",
  message: "Please provide a detailed message (at least 10 characters).",
  messageTooLong: "Please keep your message to 2000 characters or fewer.",
  /** The message holding a control character other than a line break or a tab (decisions.md). */
  messageControl:
    "Please remove the invisible control characters from your message (line breaks and tabs are fine).",
  companySize: "Please choose a company size from the list.",
  notText: "Please fill in each field once, as plain text.",
  /** A one-line field holding a line break, another control character or a bidi override (decisions.md). */
  singleLine: {
    name: "Please enter your name on a single line, without special characters.",
    email: "Please enter your email address on a single line, without special characters.",
    phone: "Please enter your phone number on a single line, without special characters.",
    company: "Please enter your company name on a single line, without special characters.",
    website: "Please enter your website address on a single line, without special characters.",
    companySize: "Please choose a company size from the list.",
    industry: "Please enter your industry on a single line, without special characters.",
  },
} as const;

export interface ContactNoticeText {
  title: string;
  description: string;
}

/** The notices (docs/requirements.md, section 5; issue 6), shown as a toast with JavaScript and next to the form without. */
export const contactNotices = {
  validationTitle: "Validation Error",
  success: {
    title: "Message Sent Successfully!",
    description: "We'll get back to you within 24 hours to discuss your automation needs.",
  },
  sendFailed: {
    title: "Error Sending Message",
    description: "There was a problem sending your message. Please try again or email us directly.",
  },
  tooManyRequests: {
    title: "Too Many Requests",
    description: "Please wait a few minutes before sending another message, or email us directly.",
  },
  tooLarge: {
    title: "Validation Error",
    description: "Your message is too long to send. Please shorten it and try again.",
  },
  unsupported: {
    title: "Validation Error",
    description: "Please send the form from this page.",
  },
  dismiss: "Dismiss notification",
  toastRegionLabel: "Notifications ({hotkey})",
} as const satisfies Record<string, unknown>;
