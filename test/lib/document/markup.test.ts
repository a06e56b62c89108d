import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import {
  executableInlineScripts,
  holdScriptsUntilPaint,
  moveTrailingMarkupIntoBody,
  scriptHashSource,
  scriptSources,
} from "~/lib/document/markup.server";
import { HELD_SCRIPTS_ID } from "~/lib/document/paint-first";

// The shape of Remix's <Scripts> output: preloads, the context script, the module bootstrap.
const CONTEXT = '<script>window.__remixContext = {"a":1};</script>';
const MODULE = 'import "/build/a.js";\nwindow.__remixManifest = {"x":"</"};';
const SCRIPTS =
  '<link rel="modulepreload" href="/build/a.js"/><link rel="modulepreload" href="/build/b.js"/>' +
  CONTEXT +
  `<script type="module" async="">${MODULE.replace("</", "\\u003c/")}</script>`;

describe("finishing the rendered markup", () => {
  it("moves what React wrote after </html> to the end of <body>", () => {
    const html = "<!DOCTYPE html><html><body><p>x</p></body></html><!--$--><script>a()</script><!--/$-->";
    expect(moveTrailingMarkupIntoBody(html)).toBe(
      "<!DOCTYPE html><html><body><p>x</p><!--$--><script>a()</script><!--/$--></body></html>",
    );
    expect(moveTrailingMarkupIntoBody("<html><body></body></html>")).toBe("<html><body></body></html>");
  });

  it("holds the preloads and the bootstrap in one JSON data block after the context script, the loader after it", () => {
    const html = `<body><main>ü日本</main>${SCRIPTS}</body>`;
    const held = holdScriptsUntilPaint(html, "loader()");
    const blockPattern = new RegExp(
      `^<body><main>ü日本</main>${CONTEXT.replace(/[+/?()[\]{}.*]/g, "\\$&")}` +
        `<script type="application/json" id="${HELD_SCRIPTS_ID}">([^<]*)</script><script>loader\\(\\)</script></body>$`,
    );
    const match = blockPattern.exec(held.html);
    expect(match, held.html).not.toBeNull();
    expect(JSON.parse(match![1]!)).toEqual({
      preloads: ["/build/a.js", "/build/b.js"],
      module: MODULE.replace("</", "\\u003c/"),
    });
    expect(held.moduleSource).toBe(MODULE.replace("</", "\\u003c/"));
    expect(held.html).not.toContain("modulepreload");
    expect(held.html).not.toContain('type="module"');
  });

  it("escapes < inside the data block, so its text can never close the element", () => {
    const html = SCRIPTS.replace('import "/build/a.js";', 'import "/build/a.js";/*<!--*/');
    const held = holdScriptsUntilPaint(html, "loader()");
    const block = held.html.slice(held.html.indexOf(`id="${HELD_SCRIPTS_ID}">`));
    expect(block.slice(block.indexOf(">") + 1, block.indexOf("</script>"))).not.toContain("<");
  });

  it("refuses, loudly, a document whose scripts do not have the shape of Remix's <Scripts>", () => {
    for (const html of [
      '<body><script type="module" async="">x</script></body>',
      // What a nonce (or any other attribute) on the scripts would look like.
      SCRIPTS.replaceAll("<script", '<script nonce="n"'),
      SCRIPTS.replace('type="module" async=""', 'type="module"'),
    ])
      expect(() => holdScriptsUntilPaint(html, "loader()"), html).toThrow(/<Scripts>/);
  });

  it("takes Remix's scripts from the end of the document, never an imitation inside the page", () => {
    const imitation = SCRIPTS.replace('import "/build/a.js";', 'alert("injected");');
    const html = `<body><main>${imitation}</main>${SCRIPTS}<!--$--><script>data()</script></body>`;
    const held = holdScriptsUntilPaint(html, "loader()");
    expect(held.moduleSource).toContain('import "/build/a.js"');
    expect(held.html.slice(0, held.scriptsStart)).toBe(`<body><main>${imitation}</main>`);
    expect(held.html.slice(held.scriptsStart)).toMatch(/^<script>window.__remixContext/);
  });

  it("hashes the scripts from Remix's on and the held bootstrap; refuses any inline script inside the page", () => {
    const injected = '<script>alert("injected")</script><script type="application/ld+json">{}</script>';
    const html = `<body><main><p>hello</p>${injected}</main>${SCRIPTS}<!--$--><script>data()</script></body>`;
    const held = holdScriptsUntilPaint(html, "loader()");
    const sources = scriptSources(held);
    expect(sources.refused).toBe(1);
    expect(sources.hashes.sort()).toEqual(
      [CONTEXT.slice(8, -9), "loader()", "data()", held.moduleSource].map(scriptHashSource).sort(),
    );
    expect(sources.hashes).not.toContain(scriptHashSource('alert("injected")'));

    const clean = holdScriptsUntilPaint(`<body><main><p>hello</p></main>${SCRIPTS}</body>`, "loader()");
    expect(scriptSources(clean).refused).toBe(0);
  });

  it("lists exactly the inline scripts a browser runs", () => {
    const html =
      '<script>a()</script><script nonce="n">b()</script><script type="module">c()</script>' +
      '<script type="application/ld+json">{"d":1}</script><script type="application/json" id="x">{}</script>' +
      '<script src="/e.js"></script><script async="" src="/f.js"></script><script type="text/javascript">g()\n</script>';
    expect(executableInlineScripts(html)).toEqual(["a()", "b()", "c()", "g()\n"]);
  });

  it("hashes a script's exact UTF-8 text as CSP expects", () => {
    const text = "console.log('ü')";
    const digest = createHash("sha256").update(Buffer.from(text, "utf8")).digest("base64");
    expect(scriptHashSource(text)).toBe(`'sha256-${digest}'`);
  });
});
