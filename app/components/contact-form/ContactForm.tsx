import { useState } from "react";

import { companySizes, contactFormLimits, contactFormText as text } from "~/content/contact-form";

const inputClass =
  "block w-full rounded-xl border border-ink-200 bg-white px-4 py-3 text-base text-ink-950 shadow-xs " +
  "placeholder:text-ink-400 transition-colors hover:border-ink-300 " +
  "focus:border-accent-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-accent-300/70";
const labelClass = "mb-2 block text-sm font-semibold text-ink-900";

interface FieldProps {
  id: keyof typeof text.fields;
  type?: string;
  required?: boolean;
  maxLength?: number;
  inputMode?: "email" | "tel" | "url" | "text";
  className?: string;
}

function Field({ id, type = "text", required = false, maxLength, inputMode, className = "" }: FieldProps) {
  const field = text.fields[id];
  return (
    <div className={className}>
      <label htmlFor={`contact-${id}`} className={labelClass}>
        {field.label}
        {required ? (
          <span aria-hidden="true" className="text-accent-700">
            {" "}
            *
          </span>
        ) : (
          <span className="font-normal text-ink-500"> {text.optional}</span>
        )}
      </label>
      <input
        id={`contact-${id}`}
        name={id}
        type={type}
        required={required}
        maxLength={maxLength}
        inputMode={inputMode}
        autoComplete={field.autoComplete}
        placeholder={field.placeholder}
        className={inputClass}
      />
    </div>
  );
}

/** The contact form: plain HTML that posts to the index route's action, with or without JavaScript. */
export function ContactForm() {
  const [messageLength, setMessageLength] = useState(0);
  return (
    <form method="post" action="/?index#contact" className="grid gap-5 sm:grid-cols-2">
      <Field id="name" required maxLength={contactFormLimits.nameMax} />
      <Field id="email" type="email" inputMode="email" required />
      <Field id="phone" type="tel" inputMode="tel" />
      <Field id="company" />
      <Field id="website" type="url" inputMode="url" />
      <div>
        <label htmlFor="contact-companySize" className={labelClass}>
          {text.fields.companySize.label} <span className="font-normal text-ink-500">{text.optional}</span>
        </label>
        <select id="contact-companySize" name="companySize" defaultValue="" className={inputClass}>
          <option value="">{text.fields.companySize.placeholder}</option>
          {companySizes.map((size) => (
            <option key={size} value={size}>
              {size}
              {text.companySizeOptionSuffix}
            </option>
          ))}
        </select>
      </div>
      <Field id="industry" className="sm:col-span-2" />
      <div className="sm:col-span-2">
        <label htmlFor="contact-message" className={labelClass}>
          {text.fields.message.label}
          <span aria-hidden="true" className="text-accent-700">
            {" "}
            *
          </span>
        </label>
        <textarea
          id="contact-message"
          name="message"
          required
          rows={6}
          maxLength={contactFormLimits.messageMax}
          placeholder={text.fields.message.placeholder}
          aria-describedby="contact-message-counter"
          onInput={(event) => setMessageLength(event.currentTarget.value.length)}
          className={`${inputClass} resize-y`}
        />
        <p id="contact-message-counter" className="mt-2 text-right text-sm tabular-nums text-ink-600">
          <span>
            {messageLength}/{contactFormLimits.messageMax}
          </span>
          <span className="sr-only"> {text.counterLabel}</span>
        </p>
      </div>
      <div className="flex flex-col gap-4 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-ink-600">{text.requiredNote}</p>
        <button
          type="submit"
          className="inline-flex min-h-12 items-center justify-center gap-2 rounded-full bg-ink-950 px-8 py-3 text-base font-semibold text-white transition hover:bg-ink-800 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-accent-400"
        >
          {text.submit}
        </button>
      </div>
    </form>
  );
}
