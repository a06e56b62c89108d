// The inline loader every document carries after Remix's scripts (decision 022). The build compiles
// this file with its imports into one small script (scripts/bundle.mjs, `paint-first.js` next to
// the server build); the server inserts that text after the held scripts' data block and lists
// its hash in the policy (markup.server.ts, document.server.tsx).
import { enhanceAfterFirstPaint } from "./paint-first";

enhanceAfterFirstPaint();
