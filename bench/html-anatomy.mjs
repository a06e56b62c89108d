#!/usr/bin/env node
// Where the bytes of the home page's HTML go: inline scripts (Remix context, JSON-LD),
// class attributes, inline SVG, and text. Usage: node bench/html-anatomy.mjs [buildDir]
import { gzipSync } from "node:zlib";

import { startAppServer } from "./lib/servers.mjs";

const server = await startAppServer((process.argv[2] ?? ".builds/bench").replace(/\/+$/, ""), {});
try {
  const html = await (await fetch(`${server.url}/`)).text();
  const size = (text) => `${text.length} raw / ${gzipSync(text).length} gz`;
  const all = (re) => [...html.matchAll(re)].map((m) => m[0]).join("");
  const parts = {
    total: html,
    "inline <script> (all)": all(/<script\b[^>]*>[\s\S]*?<\/script>/g),
    "JSON-LD": all(/<script type="application\/ld\+json"[^>]*>[\s\S]*?<\/script>/g),
    "<svg> elements": all(/<svg\b[\s\S]*?<\/svg>/g),
    'class="..." attributes': all(/ class="[^"]*"/g),
    "<link>/<meta> in head": all(/<(?:link|meta)\b[^>]*>/g),
    "text between tags": [...html.matchAll(/>([^<]+)</g)].map((m) => m[1]).join(""),
  };
  for (const [name, text] of Object.entries(parts)) console.log(`${name.padEnd(28)} ${size(text)}`);
  console.log(`elements: ${(html.match(/<[a-zA-Z][^>]*>/g) ?? []).length}`);
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  for (const [, attrs, body] of scripts)
    console.log(
      `  script${attrs.replace(/nonce="[^"]*"/, "")}: ${body.length} chars: ${body.slice(0, 80).replace(/\s+/g, " ")}`,
    );
} finally {
  await server.stop();
}
