/**
 * How the contact action answers, shared by the action, the index route's loader, the document
 * pipeline and the form (decision 026).
 *
 * Without JavaScript a successful submission is answered with a redirect (POST, then GET) to a
 * fixed page that shows the success notice, so that a reload or back/forward never posts again.
 * That page carries no visitor data: it is rendered once and cached like the home document. The
 * enhanced form asks for the outcome as data instead (it shows a toast and stays on the page).
 */

/** The form's id: answers land on it, where the notice is its first child. */
export const CONTACT_FORM_ID = "contact-form";

const SENT_PARAM = "contact";
const SENT_VALUE = "sent";

/** Where a successful no-JavaScript submission is sent (303 See Other). */
export const contactSentLocation = `/?${SENT_PARAM}=${SENT_VALUE}#${CONTACT_FORM_ID}`;

/** The query of that page exactly as the redirect writes it (the one allowed to build its cached copy). */
export const contactSentSearch = `?${SENT_PARAM}=${SENT_VALUE}`;

/** Whether a URL asks for the page that shows the success notice. */
export function isContactSentUrl(url: URL): boolean {
  return url.searchParams.get(SENT_PARAM) === SENT_VALUE;
}

/** Added by the enhanced form: "answer with data, I will show the notice myself". */
export const answerAsDataField = { name: "answer", value: "data" } as const;

/** Whether the submission came from the enhanced form (see `answerAsDataField`). */
export function wantsDataAnswer(fields: Record<string, unknown>): boolean {
  return fields[answerAsDataField.name] === answerAsDataField.value;
}
