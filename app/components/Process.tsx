import { processFootnote, processIntro, processSteps } from "~/content/process";

import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

/** How an engagement runs, step by step (a section the spec leaves open). */
export function ProcessContent() {
  return (
    <>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading intro={processIntro} id="process-heading" align="center" />
        <ol className="relative mt-16 grid gap-6 lg:grid-cols-3">
          {processSteps.map((step, index) => (
            <li
              key={step.title}
              className="group relative rounded-3xl border border-ink-200/80 bg-paper p-8 transition duration-300 hover:-translate-y-1 hover:border-ink-300 hover:shadow-xl hover:shadow-ink-900/10"
            >
              <div className="flex items-center justify-between">
                <span className="flex size-12 items-center justify-center rounded-2xl bg-ink-950 text-accent-400">
                  <Icon name={step.icon} className="size-6" />
                </span>
                <span aria-hidden="true" className="text-4xl font-bold text-ink-500 tabular-nums">
                  0{index + 1}
                </span>
              </div>
              <h3 className="mt-8">
                <span className="block text-xl font-bold tracking-tight text-ink-950">{step.title}</span>{" "}
                <span className="mt-2 inline-flex rounded-full bg-accent-400 px-3 py-1 text-sm font-bold text-ink-950">
                  {step.duration}
                </span>
              </h3>
              <p className="mt-4 leading-relaxed text-ink-600">{step.description}</p>
            </li>
          ))}
        </ol>
        <p className="mt-12 flex items-center justify-center gap-3 text-center text-lg font-semibold text-ink-900">
          <Icon name="calendar" className="size-6 text-accent-800" />
          {processFootnote}
        </p>
      </div>
    </>
  );
}
