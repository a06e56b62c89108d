/**
 * Every text the contact form shows around its fields: heading, notes, the button and the notices.
 * The fields themselves, with their labels and messages, are the field table (contact-fields.ts).
 */
export const contactFormText = {
  heading: "Request your free AI assessment",
  intro: "Tell us where the manual work piles up. We reply with concrete next steps, not a sales script.",
  requiredNote: "Fields marked * are required.",
  optional: "(optional)",
  counterLabel: "characters used",
  submit: "Send Message",
  submitting: "Sending Message...",
  /**
   * One line under the button: where a visitor reads what happens to what they type. The page's
   * name alone: the home page's bytes are budgeted, and the footer's link of the same words costs
   * nothing more.
   */
  privacyNotice: { label: "Privacy Policy", href: "/privacy" },
} as const;

/** The honeypot: a field people never see. Its name is one no password manager or autofill fills. */
export const honeypotField = { name: "hp_ref_code", label: "Leave this field empty" } as const;

/**
 * With JavaScript, the milliseconds from the first keystroke in the form to its submit (a spam
 * signal when very short: decision 042). Without JavaScript it is never sent, and never needed.
 */
export const typingTimeField = { name: "typing_ms" } as const;

/**
 * The one validation message that belongs to no field: a hand-made request sending a field twice or
 * as a file. Each field's own messages are in its row of the field table (contact-fields.ts).
 */
export const contactValidationMessages = {
  notText: "Please fill in each field once, as plain text.",
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
