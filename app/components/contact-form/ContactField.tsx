import { useEffect, useRef, useState } from "react";

import type { ContactFieldRow } from "~/content/contact-fields";
import { contactFormText as text } from "~/content/contact-form";
import { messageLength } from "~/lib/contact/form-data";

import { Icon } from "../Icon";
import { CONTACT_NOTICE_ID } from "./ContactNotice";

interface ContactFieldProps {
  field: ContactFieldRow;
  defaultValue: string | undefined;
  invalid: boolean;
  /** The server's notice is on the page (no JavaScript): an invalid field points at it. */
  noticeShown: boolean;
}

export function ContactField({ field, defaultValue, invalid, noticeShown }: ContactFieldProps) {
  const id = `contact-${field.name}`;
  const describedBy = [
    invalid && noticeShown ? CONTACT_NOTICE_ID : "",
    field.kind === "textarea" ? `${id}-counter` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const control = {
    id,
    name: field.name,
    defaultValue,
    "aria-invalid": invalid ? (true as const) : undefined,
    "aria-describedby": describedBy || undefined,
  };
  return (
    <div className={field.wide ? "sm:col-span-2" : undefined}>
      <label htmlFor={id} className="field-label">
        {field.label}
        {field.required ? (
          <span aria-hidden="true" className="text-accent-700">
            {" *"}
          </span>
        ) : (
          <span className="font-normal text-ink-500">{` ${text.optional}`}</span>
        )}
      </label>
      {field.kind === "select" ? (
        <div className="relative">
          <select
            {...control}
            defaultValue={defaultValue ?? ""}
            className="select-field field appearance-none pr-11"
          >
            <option value="">{field.placeholder}</option>
            {field.options?.map((option) => (
              <option key={option} value={option}>
                {`${option}${field.optionSuffix ?? ""}`}
              </option>
            ))}
          </select>
          <Icon
            name="chevron-down"
            className="pointer-events-none absolute top-1/2 right-4 size-5 -translate-y-1/2 text-ink-600"
          />
        </div>
      ) : field.kind === "textarea" ? (
        <TextArea field={field} control={control} />
      ) : (
        <input
          {...control}
          type={field.kind}
          // The kind's own keyboard; a text field keeps the default one.
          inputMode={field.kind === "text" ? undefined : field.kind}
          required={field.required}
          maxLength={field.maxLength}
          autoComplete={field.autoComplete}
          placeholder={field.placeholder}
          className="field"
        />
      )}
    </div>
  );
}

interface TextAreaProps {
  field: ContactFieldRow;
  control: { id: string; name: string; defaultValue: string | undefined };
}

/** The counter follows every input event (clearing the form sends one too). */
function TextArea({ field, control }: TextAreaProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [count, setCount] = useState(() => messageLength(control.defaultValue ?? ""));
  // JavaScript often arrives while the visitor types (decision 036): count what the field holds.
  useEffect(() => {
    if (ref.current) setCount(messageLength(ref.current.value));
  }, []);
  return (
    <>
      <textarea
        ref={ref}
        {...control}
        required={field.required}
        rows={5}
        maxLength={field.maxLength}
        placeholder={field.placeholder}
        onInput={(event) => setCount(messageLength(event.currentTarget.value))}
        className="field resize-y"
      />
      <p id={`${control.id}-counter`} className="mt-2 text-right text-sm tabular-nums text-ink-600">
        <span data-testid={`${control.id}-count`}>{`${count}/${field.maxLength}`}</span>
        <span className="sr-only">{` ${text.counterLabel}`}</span>
      </p>
    </>
  );
}
