import { honeypotField } from "~/content/contact-form";

/** A trap for bots, unseen by people; a submission that fills it is held as spam (decision 042). */
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
