import { honeypotField } from "~/content/contact-form";

/**
 * A trap for bots: off screen, hidden from assistive technology, out of the tab order and
 * never autofilled. People leave it empty; a submission that fills it is held as spam, never sent
 * (decision 042): a person whose password manager filled it anyway is released, not lost.
 */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor="contact-hp">{honeypotField.label}</label>
      <input
        id="contact-hp"
        type="text"
        name={honeypotField.name}
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}
