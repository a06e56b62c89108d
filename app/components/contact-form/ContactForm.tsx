import { useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";

import { CONTACT_FIELDS, type ContactFieldName } from "~/content/contact-fields";
import { contactFormText as text, contactNotices, typingTimeField } from "~/content/contact-form";
import { trackContactSubmit } from "~/lib/contact/analytics";
import { answerAsDataField, CONTACT_FORM_ID } from "~/lib/contact/answer";
import { formDataToRecord } from "~/lib/contact/form-data";
import type { ContactValidation, ContactValues } from "~/lib/contact/schema";
import type { ContactActionData } from "~/lib/contact/types";
import { withoutLoneLastWord } from "~/lib/typography";

import { ContactField } from "./ContactField";
import { ContactNotice } from "./ContactNotice";
import type { ToastNotice } from "./ContactToast";
import { Honeypot } from "./Honeypot";
import { SubmitButton } from "./SubmitButton";

// Radix Toast is only needed once the visitor uses the form: keep it out of the initial JavaScript.
const loadToast = () => import("./ContactToast");
const ContactToast = lazy(loadToast);
// The validator (zod/mini, about 6 KB gzipped) likewise: the page's first JavaScript is over budget
// with it. It is fetched when the form is first focused, long before the visitor submits.
const loadValidator = () => import("~/lib/contact/schema");

const ACTION = "/?index";
// Multipart sends text as raw UTF-8: 2000 characters of Chinese or Japanese stay near 6 KB, where
// URL encoding (9 bytes a character) would pass the server's 16 KB limit and lose the lead.
const ENC_TYPE = "multipart/form-data";

/**
 * Empties every field, the select and the honeypot included (a reset would restore server
 * defaults), and says so with an input event, as typing would: a text area's counter follows it.
 */
function clearForm(form: HTMLFormElement) {
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLSelectElement) element.selectedIndex = 0;
    else if (element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement) {
      element.value = "";
      element.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
}

/**
 * Focuses the failing field and brings it, with its label, to the middle of the screen: clear of the
 * fixed header and of the toast in every engine. (WebKit's own `focus()` scrolls only the field's
 * text line into view, which leaves its label under the header and the field under the toast.)
 */
function focusField(form: HTMLFormElement, field: ContactFieldName) {
  const element = form.elements.namedItem(field);
  if (!(element instanceof HTMLElement)) return;
  element.focus({ preventScroll: true });
  (element.closest("div:has(> label)") ?? element).scrollIntoView({ block: "center" });
}

/**
 * The contact form. Without JavaScript it is a plain POST to the index route's action, which
 * answers with the whole page, the notice and (on error) the values. With JavaScript it validates
 * in the browser with the same schema, sends through a fetcher (no navigation) and shows a toast.
 */
export function ContactForm() {
  const fetcher = useFetcher<ContactActionData>({ key: "contact-form" });
  // A no-JavaScript post renders its answer on the page (an error), or redirects to `/?contact=sent`
  // (success: the loader says so); an enhanced one comes back as fetcher data.
  const actionResult = useActionData() as ContactActionData | undefined;
  const page = useLoaderData() as { contactSent?: boolean } | null;
  const documentResult: ContactActionData | undefined =
    actionResult ??
    (page?.contactSent ? { notice: { kind: "success", ...contactNotices.success } } : undefined);
  const fetcherResult = fetcher.data as ContactActionData | undefined;
  const serverValues: Partial<ContactValues> = (fetcherResult ?? documentResult)?.values ?? {};

  const formRef = useRef<HTMLFormElement>(null);
  const inFlight = useRef(false);
  const toastId = useRef(0);
  // When the visitor first typed in the form (a spam signal when the submit follows within about
  // 3 s: decision 042). Only typing counts: Tab, Enter and a paste with the mouse are not typing.
  const firstKeystroke = useRef<number | null>(null);
  const [toast, setToast] = useState<ToastNotice | null>(null);
  const [toastWanted, setToastWanted] = useState(false);
  const [clientInvalid, setClientInvalid] = useState<ContactFieldName | null>(null);
  const [enhanced, setEnhanced] = useState(false);

  const submitting = fetcher.state !== "idle";
  const invalidField = enhanced ? (clientInvalid ?? fetcherResult?.field) : documentResult?.field;
  const noticeShown = Boolean(documentResult && !enhanced);

  useEffect(() => {
    if (fetcher.state === "idle") inFlight.current = false;
  }, [fetcher.state]);

  // The first typing in the form starts the clock the submit reports (typing_ms). A listener on the
  // form rather than a prop: the form itself is not something a visitor presses.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (firstKeystroke.current === null && (event.key.length === 1 || event.key === "Backspace"))
        firstKeystroke.current = performance.now();
    };
    form.addEventListener("keydown", onKeyDown);
    return () => form.removeEventListener("keydown", onKeyDown);
  }, []);

  // Each answer from the action is handled once, when the fetcher is done (after revalidation).
  const handledResult = useRef<ContactActionData | undefined>(undefined);
  useEffect(() => {
    if (!fetcherResult || fetcher.state !== "idle" || handledResult.current === fetcherResult) return;
    handledResult.current = fetcherResult;
    setToast({ ...fetcherResult.notice, id: ++toastId.current });
    const form = formRef.current;
    if (fetcherResult.notice.kind === "success") {
      if (form) clearForm(form);
      firstKeystroke.current = null;
    } else {
      console.error(`Contact form: ${fetcherResult.notice.title}: ${fetcherResult.notice.description}`);
      if (form && fetcherResult.field) focusField(form, fetcherResult.field);
    }
  }, [fetcherResult, fetcher.state]);

  const wantToast = () => {
    if (toastWanted) return;
    setToastWanted(true);
    void loadToast();
    void loadValidator();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    wantToast();
    setEnhanced(true);
    // The button is only aria-disabled while sending (it keeps focus): a second press lands here.
    if (inFlight.current || submitting) return;
    // Held while the validator loads, so that a double click still sends once.
    inFlight.current = true;
    // A new attempt: the last attempt's outcome no longer describes the form (issue 24).
    setToast(null);
    const formData = new FormData(form);
    void loadValidator()
      .then(
        ({ validateContact }): ContactValidation | null => validateContact(formDataToRecord(formData)),
        // The validator's chunk did not load: send anyway, the server validates every request.
        () => null,
      )
      .then((validation) => {
        if (validation && !validation.ok) {
          inFlight.current = false;
          setClientInvalid(validation.field);
          setToast({
            kind: "error",
            title: contactNotices.validationTitle,
            description: validation.message,
            id: ++toastId.current,
          });
          focusField(form, validation.field);
          return;
        }
        setClientInvalid(null);
        trackContactSubmit();
        // The outcome as data, for the toast: no redirect, the visitor stays where they are.
        formData.set(answerAsDataField.name, answerAsDataField.value);
        if (firstKeystroke.current !== null)
          formData.set(typingTimeField.name, String(Math.round(performance.now() - firstKeystroke.current)));
        fetcher.submit(formData, { method: "post", action: ACTION, encType: ENC_TYPE });
      });
  };

  return (
    <>
      <form
        ref={formRef}
        id={CONTACT_FORM_ID}
        method="post"
        // Without JavaScript the answer is a new page: land on the form, where the notice is its
        // first child. (#contact would put the notice below the fold on a phone.)
        action={`${ACTION}#${CONTACT_FORM_ID}`}
        encType={ENC_TYPE}
        // The spec's notices, not the browser's bubbles, answer every rule, with JavaScript (the
        // shared validator) as without (the server's notice). `required` and the input types stay
        // for what they still give: announced as required, the right keyboard, autofill.
        noValidate
        onSubmit={onSubmit}
        onFocus={wantToast}
        aria-busy={submitting}
        className="relative grid gap-4 sm:grid-cols-2"
      >
        {documentResult && noticeShown ? <ContactNotice notice={documentResult.notice} /> : null}
        {CONTACT_FIELDS.map((field) => (
          <ContactField
            key={field.name}
            field={field}
            defaultValue={serverValues[field.name]}
            invalid={invalidField === field.name}
            noticeShown={noticeShown}
          />
        ))}
        <Honeypot />
        {/* The notes' type set once for both (the button sets its own). Here and above, adjacent
            texts are one string: React marks each boundary between two text nodes with a comment,
            and the home page's bytes are budgeted (issue 12). */}
        <div className="grid gap-3 text-sm text-ink-600 sm:col-span-2">
          <p>{text.requiredNote}</p>
          <SubmitButton submitting={submitting} />
          <p>
            <a href={text.privacyNotice.href} className="link text-ink-950">
              {withoutLoneLastWord(text.privacyNotice.label)}
            </a>
          </p>
        </div>
      </form>
      {toastWanted ? (
        <Suspense fallback={null}>
          <ContactToast notice={toast} onClose={() => setToast(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
