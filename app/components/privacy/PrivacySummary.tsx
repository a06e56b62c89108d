import { longDate, privacyText } from "~/content/privacy";
import type { PrivacyFacts } from "~/lib/privacy.server";
import { HEADING_PAIR, PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { Icon } from "../Icon";

/** The page's first layer; the detail below says the same at length, from the same facts. */
export function PrivacySummary({ facts }: { facts: PrivacyFacts }) {
  const { summary } = privacyText;
  return (
    <div className="on-ink backdrop-community bg-ink-950 py-14 text-white sm:py-20">
      <div className="shell grid gap-10 lg:grid-cols-[0.9fr_1.1fr] lg:items-start lg:gap-16">
        <div>
          <p className="eyebrow">{privacyText.eyebrow}</p>
          <h1 className="heading mt-3">{withoutLoneLastWord(privacyText.heading, HEADING_PAIR)}</h1>
          <p className="lead mt-4 max-w-xl">{withoutLoneLastWord(privacyText.lead, PARAGRAPH_PAIR)}</p>
          {/* Art. 13 asks for no date, but a reader needs one to know whether what they read has changed. */}
          <p className="mt-4 text-sm text-ink-300" data-last-changed>
            {privacyText.lastChanged}: <time dateTime={facts.lastChanged}>{longDate(facts.lastChanged)}</time>
          </p>
        </div>
        <section aria-labelledby="summary-heading" className="card-ink p-6 sm:p-8">
          <h2 id="summary-heading" className="text-xl font-bold tracking-tight">
            {summary.heading}
          </h2>
          <ul className="mt-5 space-y-4">
            {summary.points(facts).map((point) => (
              <li key={point} className="flex items-start gap-3 leading-relaxed text-ink-100">
                <span className="disc mt-0.5 size-6 bg-accent-400 text-ink-950">
                  <Icon name="check" className="size-4" />
                </span>
                {/* Pairs of common length only: the column is narrow on a phone. */}
                <span>{withoutLoneLastWord(point)}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
