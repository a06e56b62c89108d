/** Small readers for the server's HTML, shared by the security and SEO suites. */

export interface ScriptTag {
  attributes: string;
  nonce: string | undefined;
  type: string | undefined;
}

const attribute = (attributes: string, name: string) =>
  new RegExp(`\\s${name}="([^"]*)"`, "i").exec(attributes)?.[1];

export function scriptTags(html: string): ScriptTag[] {
  return [...html.matchAll(/<script\b([^>]*)>/gi)].map((match) => {
    const attributes = match[1] ?? "";
    return { attributes, nonce: attribute(attributes, "nonce"), type: attribute(attributes, "type") };
  });
}

/** The nonce a Content-Security-Policy allows scripts by. */
export function policyNonce(policy: string | null): string | undefined {
  return /'nonce-([^']+)'/.exec(policy ?? "")?.[1];
}

export const validContactForm = () =>
  new URLSearchParams({
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "",
    company: "Analytical Engines",
    website: "https://example.com",
    companySize: "11-50",
    industry: "Manufacturing",
    message: "We would like to automate our invoice processing, please.",
  });
