/** The texts around the form's fields (the fields' own are in contact-fields.ts). */
export const contactFormText = {
  requiredNote: "Fields marked * are required.",
  optional: "(optional)",
  counterLabel: "characters used",
  submit: "Send Message",
  submitting: "Sending Message...",
  /** The page's name alone: the home page's bytes are budgeted. */
  privacyNotice: { label: "Privacy Policy", href: "/privacy" },
} as const;

/** The honeypot: a field people never see. Its name is one no password manager or autofill fills. */
export const honeypotField = { name: "hp_ref_code", label: "Leave this field empty" } as const;

/** Milliseconds from first keystroke to submit, sent with JavaScript (a spam signal: decision 042). */
export const typingTimeField = { name: "typing_ms" } as const;

/** The one message of no field: a hand-made request sending a field twice or as a file. */
export const contactValidationMessages = {
  notText: "Please fill in each field once, as plain text.",
} as const;

export interface ContactNoticeText {
  title: string;
  description: string;
}

/** The notices (docs/requirements.md, section 5): a toast with JavaScript, beside the form without. */
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
