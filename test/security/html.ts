/** Small readers for the server's HTML, shared by the security and SEO suites. */
import { createHash } from "node:crypto";

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

const JAVASCRIPT = /^(?:module|text\/javascript|application\/javascript)$/i;

/** The bootstrap the paint-first loader will run, from the document's JSON data block. */
export function heldModuleSource(html: string): string | undefined {
  const block = /<script type="application\/json" id="paint-first-scripts">([^<]*)<\/script>/.exec(html)?.[1];
  return block === undefined ? undefined : (JSON.parse(block) as { module: string }).module;
}

/**
 * Every script the document runs that its policy would refuse: an inline script is allowed by
 * its hash or by the policy's nonce, a `src` script only by the nonce, and the held bootstrap
 * (inserted by the loader with the loader's nonce) by its hash or, in a nonce document, the nonce.
 */
export function scriptsRefusedByPolicy(html: string, policy: string): string[] {
  const nonce = policyNonce(policy);
  const hashAllowed = (text: string) =>
    policy.includes(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  const refused: string[] = [];
  for (const [, attributes = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const type = attribute(attributes, "type");
    if (type && !JAVASCRIPT.test(type)) continue;
    const byNonce = nonce !== undefined && attribute(attributes, "nonce") === nonce;
    const allowed = /\ssrc=/.test(attributes) ? byNonce : byNonce || hashAllowed(text);
    if (!allowed) refused.push(`<script${attributes}>${text.slice(0, 80)}`);
  }
  const held = heldModuleSource(html);
  if (held !== undefined && !hashAllowed(held) && nonce === undefined)
    refused.push(`held bootstrap ${held.slice(0, 80)}`);
  return refused;
}

/** The nonce a Content-Security-Policy allows scripts by. */
export function policyNonce(policy: string | null): string | undefined {
  return /'nonce-([^']+)'/.exec(policy ?? "")?.[1];
}

let formSerial = 0;
/** A valid submission, a different request each call (an identical one is answered without being sent again). */
export const validContactForm = () =>
  new URLSearchParams({
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "",
    company: "Analytical Engines",
    website: "https://example.com",
    companySize: "11-50",
    industry: "Manufacturing",
    message: `We would like to automate our invoice processing, please (${++formSerial}).`,
  });
