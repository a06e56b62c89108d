import { describe, expect, it } from "vitest";

import { contactValidationMessages as messages } from "~/content/contact-form";
import {
  CONTACT_FIELDS,
  contactField,
  type ContactFieldName,
  contactFieldNames,
  type ContactFieldRow,
} from "~/content/contact-fields";
import { contactValuesFrom, validateContact } from "~/lib/contact/schema";
import { contactRequest } from "../../support/contact-request";

/** A field's messages, from its row of the field table. */
const said = (field: ContactFieldName) =>
  contactField(field).messages as Required<ContactFieldRow["messages"]>;

const valid = contactRequest({
  name: "Ada Lovelace",
  email: "ada@example.com",
  message: "We want to automate our invoicing.",
});

/** The refusal naming `field`, with `message`, or that field's own message for `rule`. */
const refused = (field: ContactFieldName, rule: keyof ReturnType<typeof said> | { text: string }) => ({
  ok: false,
  field,
  message: typeof rule === "string" ? said(field)[rule] : rule.text,
});

const failure = (input: Record<string, unknown>) => {
  const result = validateContact(input);
  if (result.ok) throw new Error(`expected a failure for ${JSON.stringify(input)}`);
  return result;
};

// The spec's other messages are quoted to the letter where the visitor sees them (test/e2e: spec-texts.ts).
it("uses the spec's website message to the letter", () => {
  expect(said("website").invalid).toBe("Please enter a valid website URL (e.g., https://example.com)");
});

describe("validateContact: the field table", () => {
  it("refuses a field left empty exactly when its row says it is required", () => {
    for (const field of CONTACT_FIELDS) {
      const result = validateContact({ ...valid, [field.name]: "  " });
      expect(!result.ok && result.field === field.name, field.name).toBe(field.required);
    }
  });

  it("checks the spec's rules first, then the rest, each in the form's order", () => {
    expect(contactFieldNames.slice(0, 4)).toEqual(["name", "email", "website", "message"]);
    expect(contactFieldNames.slice(4)).toEqual(
      CONTACT_FIELDS.map((field) => field.name).filter(
        (name) => !contactFieldNames.slice(0, 4).includes(name),
      ),
    );
  });
});

describe("validateContact: name", () => {
  it.each([[""], ["   "], ["\t\n"]])("rejects an empty name %j", (name) => {
    expect(failure({ ...valid, name })).toEqual(refused("name", "missing"));
  });
  it("accepts 100 characters and refuses 101", () => {
    expect(validateContact({ ...valid, name: "a".repeat(100) }).ok).toBe(true);
    expect(failure({ ...valid, name: "a".repeat(101) })).toMatchObject({
      field: "name",
      message: said("name").tooLong,
    });
  });
  it("trims the name it sends", () => {
    const result = validateContact({ ...valid, name: "  Ada  " });
    expect(result.ok && result.data.name).toBe("Ada");
  });
});

describe("validateContact: email", () => {
  it.each([
    "ada@example.com",
    "a.b+tag@sub.example.co.uk",
    "  ada@example.com  ",
    "o'brien@example.com",
    "O'Brien@Example.COM",
  ])("accepts %j", (email) => {
    expect(validateContact({ ...valid, email }).ok).toBe(true);
  });
  it.each([
    "",
    "ada",
    "ada@",
    "@example.com",
    "ada@example",
    "ada@example.",
    "ada@.com",
    "ada lovelace@example.com",
    "ada@exa mple.com",
    "ada@@example.com",
    "ada@b@example.com",
    "ada@example.com,eve@example.com",
    "ada@example.com;eve@example.com",
    "<ada@example.com>",
    "Ada <ada@example.com>",
    '"ada"@example.com',
    "ada@o'brien.example.com",
  ])("rejects %j", (email) => {
    expect(failure({ ...valid, email })).toEqual(refused("email", "invalid"));
  });
});

describe("validateContact: website", () => {
  it.each([
    "",
    "   ",
    "https://example.com",
    "http://example.com",
    "https://www.example.co.uk/path?q=1#x",
    "HTTPS://Example.com",
    "https://example.com:8080/",
  ])("accepts %j", (website) => {
    expect(validateContact({ ...valid, website }).ok).toBe(true);
  });
  it.each([
    "example.com",
    "www.example.com",
    "ftp://example.com",
    "https://localhost",
    "https://example",
    "https://.com",
    "https://example.",
    "https://exa mple.com",
    "javascript:alert(1)",
    "https:/example.com",
  ])("rejects %j", (website) => {
    expect(failure({ ...valid, website })).toEqual(refused("website", "invalid"));
  });
});

describe("validateContact: message", () => {
  it("refuses an empty message or 9 characters, and accepts 10 (after trimming)", () => {
    expect(failure({ ...valid, message: "  " })).toEqual(refused("message", "missing"));
    expect(failure({ ...valid, message: "123456789" }).message).toBe(said("message").missing);
    expect(failure({ ...valid, message: "   123456789   " }).message).toBe(said("message").missing);
    expect(validateContact({ ...valid, message: "1234567890" }).ok).toBe(true);
  });
  it("accepts 2000 characters and refuses 2001", () => {
    expect(validateContact({ ...valid, message: "m".repeat(2000) }).ok).toBe(true);
    expect(failure({ ...valid, message: "m".repeat(2001) })).toMatchObject({
      field: "message",
      message: said("message").tooLong,
    });
  });
  it("counts a CRLF line break once, as the browser's maxLength does", () => {
    const message = "a\r\n".repeat(999) + "bb"; // 2000 characters with LF, 2999 with CRLF
    const result = validateContact({ ...valid, message });
    expect(result.ok).toBe(true);
    expect(result.ok && result.data.message.length).toBe(2000);
  });
  // U+0000 is refused by PostgreSQL in text (22021): a lead holding it could be kept nowhere.
  it.each([
    ["U+0000", "\u0000"],
    ["U+0007 (bell)", "\u0007"],
    ["U+001B (escape)", "\u001b"],
    ["U+007F (delete)", "\u007f"],
    ["U+0085 (next line, C1)", "\u0085"],
    ["U+009F (C1)", "\u009f"],
  ])("refuses a message holding %s with the Validation Error's message text", (_name, control) => {
    expect(failure({ ...valid, message: `We want to automate${control} our invoicing.` })).toEqual(
      refused("message", "control"),
    );
  });
});

describe("validateContact: the other fields", () => {
  it.each(["1-10", "11-50", "51-200", "201-1000", "1000+", ""])("accepts company size %j", (companySize) => {
    expect(validateContact({ ...valid, companySize }).ok).toBe(true);
  });
  it.each(["2-5", "1000", "10000+", "1-10; DROP"])("refuses company size %j", (companySize) => {
    expect(failure({ ...valid, companySize })).toEqual(refused("companySize", "invalid"));
  });
  it.each([
    ["a repeated field", ["Ada", "Eve"]],
    ["a file", new File(["x"], "x.txt")],
    ["a number", 42],
    ["an object", { toString: () => "Ada" }],
  ])("refuses %s as a value", (_label, value) => {
    expect(failure({ ...valid, name: value })).toEqual(refused("name", { text: messages.notText }));
    expect(failure({ ...valid, industry: value })).toEqual(refused("industry", { text: messages.notText }));
  });
  it("ignores unknown fields", () => {
    const result = validateContact({ ...valid, admin: "yes", __proto__x: "1" });
    expect(result.ok && Object.keys(result.data)).toEqual(CONTACT_FIELDS.map((field) => field.name));
  });
});

describe("validateContact: one-line fields (docs/requirements.md, section 4: control characters)", () => {
  const singleLineFields = [
    "name",
    "email",
    "phone",
    "company",
    "website",
    "companySize",
    "industry",
  ] as const;
  const sample: Record<(typeof singleLineFields)[number], string> = {
    name: "Ali",
    email: "ali@example.com",
    phone: "+1 513 555 0100",
    company: "Acme",
    website: "https://example.com",
    companySize: "11-50",
    industry: "Retail",
  };
  // Inside the value: a leading or trailing line break is whitespace, and trimmed away.
  const smuggled: [string, (value: string) => string][] = [
    ["CR LF and a header", (value) => `${value}\r\nBcc: x@evil.example`],
    ["a bare LF", (value) => `${value.slice(0, 2)}\n${value.slice(2)}`],
    ["a bare CR", (value) => `${value.slice(0, 2)}\r${value.slice(2)}`],
    ["a tab", (value) => `${value.slice(0, 2)}\t${value.slice(2)}`],
    ["NUL", (value) => `${value.slice(0, 2)}\u0000${value.slice(2)}`],
    ["ESC (a terminal colour code)", (value) => `${value.slice(0, 2)}\u001b[31m${value.slice(2)}`],
    ["DEL", (value) => `${value.slice(0, 2)}\u007f${value.slice(2)}`],
    ["a C1 control (NEL)", (value) => `${value.slice(0, 2)}\u0085${value.slice(2)}`],
    ["U+2028 line separator", (value) => `${value.slice(0, 2)}\u2028${value.slice(2)}`],
    ["U+2029 paragraph separator", (value) => `${value.slice(0, 2)}\u2029${value.slice(2)}`],
    ...["202A", "202B", "202C", "202D", "202E", "2066", "2067", "2068", "2069"].map(
      (code): [string, (value: string) => string] => [
        `bidi control U+${code}`,
        (value) => `${value.slice(0, 2)}${String.fromCharCode(parseInt(code, 16))}${value.slice(2)}`,
      ],
    ),
  ];
  for (const field of singleLineFields) {
    it.each(smuggled)(
      `${field}: rejects %s with the Validation Error text for the field`,
      (_label, smuggle) => {
        const result = failure({ ...valid, ...sample, [field]: smuggle(sample[field]) });
        expect(result).toEqual({ ok: false, field, message: said(field).notOneLine });
      },
    );
  }
  it("accepts the same values on one line", () => {
    expect(validateContact({ ...valid, ...sample }).ok).toBe(true);
  });
  it("accepts letters from any script, emoji and combining marks in one-line fields", () => {
    const result = validateContact({ ...valid, name: "Zoë Ñúñez 山田 👩🏽‍💻", company: "Café Ω" });
    expect(result.ok).toBe(true);
  });
  it("the message keeps its line breaks (CR, LF, CRLF) and tabs, and loses the bidi controls", () => {
    const result = validateContact({
      ...valid,
      message: "Line one\r\nLine two\rthree\n\tindented \u202Ereversed\u202C and \u2066isolated\u2069.",
    });
    expect(result.ok && result.data.message).toBe(
      "Line one\nLine two\nthree\n\tindented reversed and isolated.",
    );
  });
  it("the one-line rule comes after the name's emptiness and before the e-mail's format", () => {
    expect(failure({ ...valid, name: "\r\n" }).message).toBe(said("name").missing);
    expect(failure({ ...valid, email: "a\nb@example.com" }).message).toBe(said("email").notOneLine);
  });
});

describe("validateContact: order", () => {
  const allWrong = { name: "", email: "nope", website: "example.com", message: "short", companySize: "x" };
  it("reports name, then email, then website, then message", () => {
    expect(failure(allWrong).field).toBe("name");
    expect(failure({ ...allWrong, name: "Ada" }).field).toBe("email");
    expect(failure({ ...allWrong, name: "Ada", email: "a@b.co" }).field).toBe("website");
    expect(failure({ ...allWrong, name: "Ada", email: "a@b.co", website: "" }).field).toBe("message");
    expect(
      failure({ ...allWrong, name: "Ada", email: "a@b.co", website: "", message: "long enough now" }).field,
    ).toBe("companySize");
  });
  it("reports an empty form as the missing name", () => {
    expect(failure({}).message).toBe(said("name").missing);
  });
});

describe("validateContact: output", () => {
  it("sends every key, optional ones as empty strings", () => {
    const result = validateContact({ name: "Ada", email: "ada@example.com", message: "Automate everything" });
    expect(result).toEqual({
      ok: true,
      data: contactRequest({
        name: "Ada",
        email: "ada@example.com",
        message: "Automate everything",
      }),
    });
  });
});

describe("contactValuesFrom", () => {
  it("keeps text as typed and empties what is not text", () => {
    expect(contactValuesFrom({ name: " Ada ", email: ["a", "b"], message: new File([""], "f") })).toEqual(
      contactRequest({
        name: " Ada ",
      }),
    );
  });
});
