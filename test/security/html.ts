/** Small readers for the server's HTML, shared by the security and SEO suites. */
import { createHash } from "node:crypto";

export interface ScriptTag {
  attributes: string;
  type: string | undefined;
}

const attribute = (attributes: string, name: string) =>
  new RegExp(`\\s${name}="([^"]*)"`, "i").exec(attributes)?.[1];

export function scriptTags(html: string): ScriptTag[] {
  return [...html.matchAll(/<script\b([^>]*)>/gi)].map((match) => {
    const attributes = match[1] ?? "";
    return { attributes, type: attribute(attributes, "type") };
  });
}

const JAVASCRIPT = /^(?:module|text\/javascript|application\/javascript)$/i;

/** The bootstrap the paint-first loader will run, from the document's JSON data block. */
export function heldModuleSource(html: string): string | undefined {
  const block = /<script type="application\/json" id="paint-first-scripts">([^<]*)<\/script>/.exec(html)?.[1];
  return block === undefined ? undefined : (JSON.parse(block) as { module: string }).module;
}

/**
 * Every script the document runs that its policy would refuse: an inline script is allowed only
 * by its hash, a parser-inserted `src` script never (only scripts that allowed scripts insert run,
 * by 'strict-dynamic'), and the held bootstrap (inserted later by the loader) by its hash.
 */
export function scriptsRefusedByPolicy(html: string, policy: string): string[] {
  const hashAllowed = (text: string) =>
    policy.includes(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  const refused: string[] = [];
  for (const [, attributes = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const type = attribute(attributes, "type");
    if (type && !JAVASCRIPT.test(type)) continue;
    const allowed = !/\ssrc=/.test(attributes) && hashAllowed(text);
    if (!allowed) refused.push(`<script${attributes}>${text.slice(0, 80)}`);
  }
  const held = heldModuleSource(html);
  if (held !== undefined && !hashAllowed(held)) refused.push(`held bootstrap ${held.slice(0, 80)}`);
  return refused;
}

/** The hash source of every script the document runs: its inline scripts and the held bootstrap. */
export function hashesOfDocumentScripts(html: string): string[] {
  const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
  const hashes: string[] = [];
  for (const [, attributes = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const type = attribute(attributes, "type");
    if ((type && !JAVASCRIPT.test(type)) || /\ssrc=/.test(attributes)) continue;
    hashes.push(hash(text));
  }
  const held = heldModuleSource(html);
  if (held !== undefined) hashes.push(hash(held));
  return [...new Set(hashes)].sort();
}

export function policyHashes(policy: string | null): string[] {
  return [...(policy ?? "").matchAll(/'sha256-[A-Za-z0-9+/]{43}='/g)].map((match) => match[0]);
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

/** A nonce the policy would allow scripts by (there is none: every document is allowed by hashes). */
export function policyNonce(policy: string | null): string | undefined {
  return /'nonce-([^']+)'/.exec(policy ?? "")?.[1];
}
