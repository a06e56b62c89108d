/**
 * The contact form's fields in form order. The validator, the form, the privacy page, the stored
 * lead and the leads CLI are made from this table: adding a field is adding a row here.
 */

/** How a field is shown, and the rules its kind brings (a one-line field refuses line breaks). */
export type FieldKind = "text" | "email" | "tel" | "url" | "select" | "textarea";

export interface ContactFieldRow {
  readonly name: string;
  readonly label: string;
  readonly kind: FieldKind;
  /** Refused when left empty (after trimming); the browser marks it `required` too. */
  readonly required: boolean;
  /** Checked first: the spec names a rule for these, and a visitor is told of the first failure. */
  readonly specRule: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** The only values a `select` accepts besides empty, and the words after each on its option. */
  readonly options?: readonly string[];
  readonly optionSuffix?: string;
  readonly placeholder: string;
  readonly autoComplete: string;
  readonly wide?: boolean;
  /** Why the site asks for it: the privacy page's list. */
  readonly purpose: string;
  readonly messages: {
    /** Empty, or shorter than `minLength`. */
    readonly missing?: string;
    readonly tooLong?: string;
    readonly invalid?: string;
    /** A one-line field holding a line break, another control character or a bidi override. */
    readonly notOneLine?: string;
    /** A text area holding a control character other than a line break or a tab. */
    readonly control?: string;
  };
}

export const CONTACT_FIELDS = [
  {
    name: "name",
    label: "Full name",
    kind: "text",
    required: true,
    specRule: true,
    maxLength: 100,
    placeholder: "Jane Smith",
    autoComplete: "name",
    purpose: "To address you in our reply.",
    messages: {
      missing: "Please enter your full name.",
      tooLong: "Please keep your name to 100 characters or fewer.",
      notOneLine: "Please enter your name on a single line, without special characters.",
    },
  },
  {
    name: "email",
    label: "Email",
    kind: "email",
    required: true,
    specRule: true,
    placeholder: "jane@company.com",
    autoComplete: "email",
    purpose: "To reply to you.",
    messages: {
      missing: "Please enter a valid email address.",
      invalid: "Please enter a valid email address.",
      notOneLine: "Please enter your email address on a single line, without special characters.",
    },
  },
  {
    name: "phone",
    label: "Phone",
    kind: "tel",
    required: false,
    specRule: false,
    placeholder: "(513) 555-0100",
    autoComplete: "tel",
    purpose: "To call you back, if you would rather talk.",
    messages: {
      notOneLine: "Please enter your phone number on a single line, without special characters.",
    },
  },
  {
    name: "company",
    label: "Company",
    kind: "text",
    required: false,
    specRule: false,
    placeholder: "Acme Inc.",
    autoComplete: "organization",
    purpose: "To know whose work you want to automate.",
    messages: {
      notOneLine: "Please enter your company name on a single line, without special characters.",
    },
  },
  {
    name: "website",
    label: "Website",
    kind: "url",
    required: false,
    specRule: true,
    placeholder: "https://example.com",
    autoComplete: "url",
    purpose: "To look at your business before we reply.",
    messages: {
      invalid: "Please enter a valid website URL (e.g., https://example.com)",
      notOneLine: "Please enter your website address on a single line, without special characters.",
    },
  },
  {
    name: "companySize",
    label: "Company size",
    kind: "select",
    required: false,
    specRule: false,
    options: ["1-10", "11-50", "51-200", "201-1000", "1000+"],
    optionSuffix: " employees",
    placeholder: "Select size",
    autoComplete: "off",
    purpose: "To fit our proposal to the size of your business.",
    messages: {
      invalid: "Please choose a company size from the list.",
      notOneLine: "Please choose a company size from the list.",
    },
  },
  {
    name: "industry",
    label: "Industry",
    kind: "text",
    required: false,
    specRule: false,
    placeholder: "e.g., Healthcare, Retail, Logistics",
    autoComplete: "off",
    wide: true,
    purpose: "To bring examples from your field.",
    messages: {
      notOneLine: "Please enter your industry on a single line, without special characters.",
    },
  },
  {
    name: "message",
    label: "How can we help?",
    kind: "textarea",
    required: true,
    specRule: true,
    minLength: 10,
    maxLength: 2000,
    placeholder: "Describe the processes you would like to automate, the tools you use today and your goals.",
    autoComplete: "off",
    wide: true,
    purpose: "Your request itself: what we answer.",
    messages: {
      missing: "Please provide a detailed message (at least 10 characters).",
      tooLong: "Please keep your message to 2000 characters or fewer.",
      control:
        "Please remove the invisible control characters from your message (line breaks and tabs are fine).",
    },
  },
] as const satisfies readonly ContactFieldRow[];

export type ContactFieldName = (typeof CONTACT_FIELDS)[number]["name"];

type ContactFieldOf<N extends ContactFieldName> = Extract<(typeof CONTACT_FIELDS)[number], { name: N }>;

export function contactField<N extends ContactFieldName>(name: N): ContactFieldOf<N> {
  return CONTACT_FIELDS.find((field) => field.name === name) as ContactFieldOf<N>;
}

/** The order fields are checked in: the spec's rules first, then the rest, each in form order. */
export const contactFieldNames: readonly ContactFieldName[] = [
  ...CONTACT_FIELDS.filter((field) => field.specRule),
  ...CONTACT_FIELDS.filter((field) => !field.specRule),
].map((field) => field.name);
