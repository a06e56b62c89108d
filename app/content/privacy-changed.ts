/**
 * The day the privacy page's own copy (app/content/privacy.ts) last changed in what it says: the
 * page's "last changed" is the later of this and PRIVACY_LAST_CHANGED (ops' texts). Change it with
 * the copy, in the same commit. Its own module, so that app/lib/privacy.server.ts reads it without
 * the copy (which reads the facts' types from there).
 */
export const copyLastChanged = "2026-12-02";
