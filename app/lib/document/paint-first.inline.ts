// The inline loader every document carries after Remix's scripts (decisions 022 and 036), compiled
// by scripts/bundle.mjs into `paint-first.js` and inserted by markup.server.ts.
import { afterLoadAndFirstPaint, enhanceOnIntent, idleTime } from "./paint-first";
import { renderLaterParts } from "./render-later";
import { smoothScrollOnIntent } from "./smooth-scroll";

/**
 * The build's browser modules in dependency order, leaves first (`evaluationOrder` in
 * scripts/build.mjs), written in by the build: the loader evaluates them one per task.
 */
declare const EVALUATION_ORDER: readonly string[];

smoothScrollOnIntent();
// First the parts after the hero (at once if the visitor opens somewhere in the page), then the
// scripts (at the first interaction); in idle time after the first paint, whatever comes first.
const renderInIdleTime = renderLaterParts(idleTime);
const enhanceInIdleTime = enhanceOnIntent(EVALUATION_ORDER);
afterLoadAndFirstPaint(() => {
  renderInIdleTime();
  enhanceInIdleTime();
});
