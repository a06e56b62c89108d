#!/usr/bin/env node
/**
 * Renders the site's raster images from HTML/SVG with Chromium, so they stay in
 * step with the brand mark (public/favicon.svg) and palette (app/styles/app.css):
 *   public/og-image.png          1200x630 Open Graph / Twitter card
 *   public/apple-touch-icon.png  180x180
 *   public/icon-192.png, public/icon-512.png  web manifest icons
 *   public/favicon.ico           32x32 (a PNG inside an ICO container)
 * Run: node scripts/make-images.mjs  (Chromium as the tests find it: CHROME_PATH or `chromium` on the PATH)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { CHROMIUM_FLAGS, chromiumPath } from "./chromium.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const publicDir = `${root}public`;
const mark = readFileSync(`${publicDir}/favicon.svg`, "utf8");

const ink = "#070b18";
const accent = "#d4ff3a";

const ogCard = `<!doctype html><html><head><meta charset="utf-8"><style>
  * { margin: 0; box-sizing: border-box; }
  body { width: 1200px; height: 630px; overflow: hidden; background: ${ink};
    font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #f6f7fb; }
  .card { position: relative; width: 100%; height: 100%; padding: 72px 80px;
    display: flex; flex-direction: column; justify-content: space-between;
    background:
      radial-gradient(circle at 88% 12%, rgba(212,255,58,0.22), transparent 42%),
      radial-gradient(circle at 8% 100%, rgba(95,105,135,0.45), transparent 48%),
      linear-gradient(135deg, #0e1428 0%, ${ink} 70%); }
  .grid { position: absolute; inset: 0; opacity: 0.09;
    background-image: linear-gradient(#d9deea 1px, transparent 1px), linear-gradient(90deg, #d9deea 1px, transparent 1px);
    background-size: 60px 60px; }
  .brand { position: relative; display: flex; align-items: center; gap: 20px; font-size: 34px; font-weight: 700; letter-spacing: -0.5px; }
  .brand svg { width: 64px; height: 64px; }
  h1 { position: relative; font-size: 84px; line-height: 1.02; font-weight: 800; letter-spacing: -2.5px; max-width: 980px; }
  h1 em { font-style: normal; color: ${accent}; }
  .claims { position: relative; display: flex; gap: 16px; flex-wrap: wrap; }
  .claim { border: 2px solid rgba(212,255,58,0.55); color: ${accent}; border-radius: 999px; padding: 10px 22px; font-size: 23px; font-weight: 700; }
  .place { position: absolute; right: 80px; top: 84px; font-size: 24px; color: #b9c0d4; }
</style></head><body><div class="card"><div class="grid"></div>
  <div class="brand">${mark}<span>AI Automation Agency</span></div>
  <div class="place">Cincinnati, OH</div>
  <h1>Transform Your Business with <em>AI</em></h1>
  <div class="claims"><span class="claim">Up to 80% less manual work</span><span class="claim">ROI in 3-6 months</span><span class="claim">Start in 2 weeks</span></div>
</div></body></html>`;

/** The mark on a full-bleed square (no transparent corners: iOS and Android mask icons themselves). */
const squareIcon = (size) => `<!doctype html><html><head><style>
  * { margin: 0; } body { width: ${size}px; height: ${size}px; background: #d4ff3a; overflow: hidden; }
  svg { display: block; width: ${size}px; height: ${size}px; }
</style></head><body>${mark.replace('rx="10"', 'rx="0"')}</body></html>`;

const tabIcon = `<!doctype html><html><head><style>
  * { margin: 0; } html, body { width: 32px; height: 32px; background: transparent; overflow: hidden; }
  svg { display: block; width: 32px; height: 32px; }
</style></head><body>${mark}</body></html>`;

/** An ICO file holding one PNG image (supported by every browser that asks for /favicon.ico). */
function icoFromPng(png, size) {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size >= 256 ? 0 : size, 6); // width
  header.writeUInt8(size >= 256 ? 0 : size, 7); // height
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9); // reserved
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14); // image size
  header.writeUInt32LE(22, 18); // image offset
  return Buffer.concat([header, png]);
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
try {
  const shot = async (html, width, height, omitBackground = false) => {
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    await page.setContent(html, { waitUntil: "load" });
    const png = await page.screenshot({ type: "png", omitBackground, clip: { x: 0, y: 0, width, height } });
    await page.close();
    return png;
  };
  writeFileSync(`${publicDir}/og-image.png`, await shot(ogCard, 1200, 630));
  writeFileSync(`${publicDir}/apple-touch-icon.png`, await shot(squareIcon(180), 180, 180));
  writeFileSync(`${publicDir}/icon-192.png`, await shot(squareIcon(192), 192, 192));
  writeFileSync(`${publicDir}/icon-512.png`, await shot(squareIcon(512), 512, 512));
  writeFileSync(`${publicDir}/favicon.ico`, icoFromPng(await shot(tabIcon, 32, 32, true), 32));
  console.log("wrote og-image.png, apple-touch-icon.png, icon-192.png, icon-512.png, favicon.ico to public/");
} finally {
  await browser.close();
}
