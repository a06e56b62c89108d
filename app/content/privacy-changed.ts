/**
 * When ./privacy.ts last changed in what it says (the page shows the later of this and
 * PRIVACY_LAST_CHANGED). Its own module: app/lib/privacy.server.ts reads it without the copy.
 */
export const copyLastChanged = "2026-12-02";
