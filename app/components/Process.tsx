import { processFootnote, processIntro, processSteps } from "~/content/process";
import { PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

/** A step's text runs 16 px wide in a column of 220 px or more at 320 px: a pair of 20 characters fits. */
const STEP_PAIR = 20;

export function ProcessContent() {
  return (
    <div className="shell">
      <SectionHeading intro={processIntro} id="process-heading" align="split" />
      <ol className="mt-10 grid gap-8 lg:mt-14 lg:grid-cols-3 lg:gap-0">
        {processSteps.map((step) => (
          <li key={step.title} className="timeline-step">
            <span className="disc size-12 bg-accent-400 text-ink-950">
              <Icon name={step.icon} className="size-6" />
            </span>
            <div className="lg:mt-6">
              <h3 className="text-xl font-bold tracking-tight">
                {step.title}{" "}
                <span className="mt-1 block font-mono text-sm font-semibold tracking-[0.12em] text-accent-400 uppercase">
                  {step.duration}
                </span>
              </h3>
              <p className="mt-2 leading-relaxed text-ink-300">
                {withoutLoneLastWord(step.description, STEP_PAIR)}
              </p>
            </div>
          </li>
        ))}
      </ol>
      <p className="mt-10 inline-flex items-center gap-3 rounded-md border border-accent-400/40 bg-accent-400/10 px-5 py-3 font-semibold text-white lg:mt-14">
        <Icon name="calendar" className="size-5 shrink-0 text-accent-400" />
        {withoutLoneLastWord(processFootnote, PARAGRAPH_PAIR)}
      </p>
    </div>
  );
}
