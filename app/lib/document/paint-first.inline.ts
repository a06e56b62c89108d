// The inline loader every document carries after Remix's scripts (decisions 022 and 036). The build
// compiles this file with its imports into one small script (scripts/bundle.mjs, `paint-first.js`
// next to the server build); the server inserts that text after the held scripts' data block and
// lists its hash in the policy (markup.server.ts, document.server.tsx).
import { enhanceOnIntent } from "./paint-first";

/**
 * The build's browser modules in dependency order, leaves first (`evaluationOrder` in
 * scripts/build.mjs), written in by the build: the loader evaluates them one per task.
 */
declare const EVALUATION_ORDER: readonly string[];

enhanceOnIntent(EVALUATION_ORDER);
