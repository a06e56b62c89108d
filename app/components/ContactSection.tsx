import { contactDetails, contactIntro } from "~/content/contact";

import { ContactForm } from "./contact-form/ContactForm";
import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

export function ContactSection() {
  return (
    <section id="contact" aria-labelledby="contact-heading" className="bg-paper py-24 sm:py-32">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[0.8fr_1.2fr] lg:gap-16 lg:px-8">
        <div>
          <SectionHeading intro={contactIntro} id="contact-heading" />
          <ul className="mt-10 space-y-4">
            <li className="flex items-center gap-4">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-ink-950 text-accent-400">
                <Icon name="mail" className="size-5" />
              </span>
              <span>
                <span className="block text-sm font-medium text-ink-600">{contactDetails.emailLabel}</span>
                <a
                  href={`mailto:${contactDetails.email}`}
                  className="text-lg font-semibold text-ink-950 underline decoration-accent-500 decoration-2 underline-offset-4 hover:decoration-ink-950"
                >
                  {contactDetails.email}
                </a>
              </span>
            </li>
            <li className="flex items-center gap-4">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-ink-950 text-accent-400">
                <Icon name="pin" className="size-5" />
              </span>
              <span>
                <span className="block text-sm font-medium text-ink-600">{contactDetails.locationLabel}</span>
                <span className="text-lg font-semibold text-ink-950">{contactDetails.location}</span>
              </span>
            </li>
          </ul>
          <div className="mt-10 rounded-3xl bg-ink-950 p-7 text-white">
            <div className="flex items-center gap-3">
              <Icon name="clock" className="size-6 text-accent-400" />
              <p className="text-lg font-bold">{contactDetails.responseCard.title}</p>
            </div>
            <p className="mt-3 leading-relaxed text-ink-300">{contactDetails.responseCard.text}</p>
          </div>
        </div>
        <div className="rounded-3xl border border-ink-200/80 bg-white p-6 shadow-xl shadow-ink-900/5 sm:p-10">
          <ContactForm />
        </div>
      </div>
    </section>
  );
}
