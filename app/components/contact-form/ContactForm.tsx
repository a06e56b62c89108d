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

// Toast and validator load once the form is used: the first JavaScript is over budget with them.
const loadToast = () => import("./ContactToast");
const ContactToast = lazy(loadToast);
const loadValidator = () => import("~/lib/contact/schema");

const ACTION = "/?index";
// Multipart sends raw UTF-8: URL-encoded, 2000 CJK characters would pass the server's 16 KB limit.
const ENC_TYPE = "multipart/form-data";

/** Empties every field (a reset would restore server defaults), with input events for the counters. */
function clearForm(form: HTMLFormElement) {
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLSelectElement) element.selectedIndex = 0;
    else if (element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement) {
      element.value = "";
      element.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
}

/** Centres field and label: WebKit's `focus()` leaves them under the header and the toast. */
function focusField(form: HTMLFormElement, field: ContactFieldName) {
  const element = form.elements.namedItem(field);
  if (!(element instanceof HTMLElement)) return;
  element.focus({ preventScroll: true });
  (element.closest("div:has(> label)") ?? element).scrollIntoView({ block: "center" });
}

/** A plain POST without JavaScript; with it, validated in the browser, sent by a fetcher, toasted. */
export function ContactForm() {
  const fetcher = useFetcher<ContactActionData>({ key: "contact-form" });
  // Without JavaScript: an error renders on the page; success redirects to `/?contact=sent`.
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
  // First typing in the form: a spam signal when the submit follows within about 3 s (decision 042).
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

  // Starts the typing_ms clock. A listener, not a prop: the form is not something a visitor presses.
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

  // Each answer is handled once, after revalidation.
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
    // Held while the validator loads: a double click sends once.
    inFlight.current = true;
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
        // The outcome as data, not a redirect.
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
        // Without JavaScript, land on the notice (#contact would leave it below a phone's fold).
        action={`${ACTION}#${CONTACT_FORM_ID}`}
        encType={ENC_TYPE}
        // The spec's notices, not the browser's bubbles; `required` and types stay for a11y, keyboards.
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
        {/* Adjacent texts are one string: React marks each text boundary, and bytes are budgeted. */}
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
