import { services, servicesIntro } from "~/content/services";

import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

/** The inside of the section (its <section> frame is `sectionFrames.services`): static HTML, never hydrated. */
export function ServicesContent() {
  return (
    <>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading intro={servicesIntro} id="services-heading" />
        <ul className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li
              key={service.title}
              className="group relative flex flex-col rounded-3xl border border-ink-200/80 bg-white p-8 shadow-sm transition duration-300 hover:-translate-y-1 hover:border-ink-300 hover:shadow-xl hover:shadow-ink-900/10"
            >
              <span className="flex size-12 items-center justify-center rounded-2xl bg-ink-950 text-accent-400 transition-colors group-hover:bg-accent-400 group-hover:text-ink-950">
                <Icon name={service.icon} className="size-6" />
              </span>
              <h3 className="mt-6 text-xl font-bold tracking-tight text-ink-950">{service.title}</h3>
              <p className="mt-3 leading-relaxed text-ink-600">{service.description}</p>
              <ul className="mt-6 space-y-2.5 border-t border-ink-100 pt-6">
                {service.features.map((feature) => (
                  <li key={feature} className="flex items-start gap-3 text-sm font-medium text-ink-800">
                    <Icon name="check" className="mt-0.5 size-4 shrink-0 text-accent-800" />
                    {feature}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
