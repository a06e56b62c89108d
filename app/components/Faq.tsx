import { useEffect, useRef, useState } from "react";

import { faqInitialCount, faqIntro, faqs, faqText } from "~/content/faq";
import { site } from "~/content/site";
import type { Faq as FaqEntry } from "~/content/types";

import {
  faqAnswerClass,
  faqChevronClass,
  faqItemClass,
  faqQuestionClass,
  faqToggleClass,
} from "./faq-styles";
import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

type AccordionModule = typeof import("./faq-accordion");

function NativeItem({ faq, index }: { faq: FaqEntry; index: number }) {
  return (
    <details data-faq-item={index} className={faqItemClass}>
      <summary className={faqQuestionClass}>
        <h3>{faq.question}</h3>
        <span className={faqChevronClass}>
          <Icon name="close" className="size-4 rotate-45" />
        </span>
      </summary>
      <div className={faqAnswerClass}>
        <p>{faq.answer}</p>
      </div>
    </details>
  );
}

/**
 * The FAQ. Server HTML is native `<details>`: every answer is reachable without JavaScript.
 * When the section approaches the viewport (or is pointed at or focused), Radix Accordion is
 * loaded and replaces it with the same classes and sizes, keeping whatever was open.
 */
export function Faq() {
  const section = useRef<HTMLElement>(null);
  const [accordion, setAccordion] = useState<AccordionModule | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [openValue, setOpenValue] = useState<string | undefined>(undefined);
  const loading = useRef(false);

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    void import("./faq-accordion").then((mod) => {
      const node = section.current;
      const more = node?.querySelector<HTMLDetailsElement>("details[data-faq-more]");
      const open = node?.querySelector<HTMLDetailsElement>("details[data-faq-item][open]");
      setShowAll(more?.open ?? false);
      setOpenValue(open ? `faq-${open.dataset.faqItem}` : undefined);
      setAccordion(mod);
    });
  };

  useEffect(() => {
    const node = section.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        load();
      },
      { rootMargin: "0px 0px 600px 0px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const first = faqs.slice(0, faqInitialCount);
  const rest = faqs.slice(faqInitialCount);

  return (
    <section
      ref={section}
      id="faq"
      aria-labelledby="faq-heading"
      onPointerOver={load}
      onFocus={load}
      className="bg-white py-24 sm:py-32"
    >
      <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
        <SectionHeading intro={faqIntro} id="faq-heading" align="center" />
        <div className="mt-14">
          {accordion ? (
            <>
              <accordion.FaqAccordion items={showAll ? faqs : first} defaultValue={openValue} />
              <button
                type="button"
                aria-expanded={showAll}
                onClick={() => setShowAll((value) => !value)}
                className={faqToggleClass}
              >
                {showAll ? faqText.viewLess : faqText.viewMore}
              </button>
            </>
          ) : (
            <div>
              <div className="space-y-3">
                {first.map((faq, index) => (
                  <NativeItem key={faq.question} faq={faq} index={index} />
                ))}
              </div>
              <details data-faq-more className="group/more">
                <summary className={faqToggleClass}>
                  <span className="group-open/more:hidden">{faqText.viewMore}</span>
                  <span className="hidden group-open/more:inline">{faqText.viewLess}</span>
                </summary>
                <div className="mt-8 space-y-3">
                  {rest.map((faq, index) => (
                    <NativeItem key={faq.question} faq={faq} index={index + faqInitialCount} />
                  ))}
                </div>
              </details>
            </div>
          )}
        </div>
        <p className="mt-12 text-center text-ink-600">
          {faqText.moreQuestions}{" "}
          <a
            href={`mailto:${site.email}`}
            className="font-semibold text-ink-950 underline decoration-accent-500 decoration-2 underline-offset-4 hover:decoration-ink-950"
          >
            {faqText.emailUs}
          </a>
        </p>
      </div>
    </section>
  );
}
