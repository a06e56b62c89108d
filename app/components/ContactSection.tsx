import { contactDetails, contactIntro } from "~/content/contact";
import { PARAGRAPH_PAIR, TITLE_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { ContactForm } from "./contact-form/ContactForm";
import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

/** The form before the contact details, so a phone shows it first; from lg they sit beside it. */
export function ContactSection() {
  return (
    <section
      id="contact"
      aria-labelledby="contact-heading"
      className="band bg-paper"
      // The loader may render this part (an inline style) before React hydrates it: decision 036.
      suppressHydrationWarning
    >
      <div className="shell grid gap-8 lg:grid-cols-[0.8fr_1.2fr] lg:grid-rows-[auto_1fr] lg:gap-x-16 lg:gap-y-10">
        <SectionHeading intro={contactIntro} id="contact-heading" />
        <div className="sm:rounded-md sm:border sm:border-ink-200 sm:bg-white sm:p-8 sm:shadow-card lg:row-span-2 lg:p-10 lg:shadow-lift">
          <ContactForm />
        </div>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1 lg:content-start">
          <ul className="space-y-4">
            <li className="flex items-center gap-4">
              <span className="icon-tile size-11">
                <Icon name="mail" className="size-5" />
              </span>
              <span>
                <span className="block text-sm font-medium text-ink-600">{contactDetails.emailLabel}</span>
                <a href={`mailto:${contactDetails.email}`} className="link text-lg text-ink-950">
                  {contactDetails.email}
                </a>
              </span>
            </li>
            <li className="flex items-center gap-4">
              <span className="icon-tile size-11">
                <Icon name="pin" className="size-5" />
              </span>
              <span>
                <span className="block text-sm font-medium text-ink-600">{contactDetails.locationLabel}</span>
                <span className="text-lg font-semibold text-ink-950">{contactDetails.location}</span>
              </span>
            </li>
          </ul>
          <div className="on-ink rounded-md bg-ink-950 p-6 text-white">
            <p className="flex items-center gap-3 font-bold sm:text-lg">
              <Icon name="clock" className="size-6 shrink-0 text-accent-400" />
              {withoutLoneLastWord(contactDetails.responseCard.title, TITLE_PAIR)}
            </p>
            <p className="mt-2 leading-relaxed text-ink-300">
              {withoutLoneLastWord(contactDetails.responseCard.text, PARAGRAPH_PAIR)}
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}
