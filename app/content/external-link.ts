/**
 * Said after the name of every link that opens a new tab. Its own module: the hydrated footer
 * imports it without pulling the community section's copy (a static island) into the browser.
 */
export const newTabHint = "(opens in a new tab)";
