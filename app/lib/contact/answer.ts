/**
 * How the contact action answers (decision 026). Without JavaScript, a success redirects to a
 * fixed page with the notice, so a reload never posts again; it carries no visitor data, so it is
 * rendered once and cached. The enhanced form asks for the outcome as data instead.
 */

/** The form's id: answers land on it, where the notice is its first child. */
export const CONTACT_FORM_ID = "contact-form";

const SENT_PARAM = "contact";
const SENT_VALUE = "sent";

/** Where a successful no-JavaScript submission is sent (303 See Other). */
export const contactSentLocation = `/?${SENT_PARAM}=${SENT_VALUE}#${CONTACT_FORM_ID}`;

/** That page's query exactly as the redirect writes it (the one its cached copy is built for). */
export const contactSentSearch = `?${SENT_PARAM}=${SENT_VALUE}`;

export function isContactSentUrl(url: URL): boolean {
  return url.searchParams.get(SENT_PARAM) === SENT_VALUE;
}

/** Added by the enhanced form: "answer with data, I will show the notice myself". */
export const answerAsDataField = { name: "answer", value: "data" } as const;

export function wantsDataAnswer(fields: Record<string, unknown>): boolean {
  return fields[answerAsDataField.name] === answerAsDataField.value;
}
