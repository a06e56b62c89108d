/** Its own module: the hydrated footer imports it without the community section's copy. */
export const newTabHint = "(opens in a new tab)";
