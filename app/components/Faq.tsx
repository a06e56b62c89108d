import { type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

import { faqInitialCount, faqIntro, faqs, faqText } from "~/content/faq";
import { site } from "~/content/site";
import type { Faq as FaqEntry } from "~/content/types";
import { useBrowserLayoutEffect } from "~/lib/browser-layout-effect";
import { whenReleased } from "~/lib/when-released";

import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

type AccordionModule = typeof import("./faq-accordion");

type FocusedControl = { kind: "item"; index: string } | { kind: "toggle" } | null;

/** No text colour of its own: a utility colour would outrank `btn-line`'s hover colours. */
const TOGGLE_CLASS = "btn btn-line mt-6 w-fit cursor-pointer";

/** One `name` for the native items: the browser keeps one open at most. */
const NATIVE_GROUP = "faq";

function focusedControl(section: HTMLElement | null): FocusedControl {
  const active = document.activeElement;
  if (!section || !(active instanceof HTMLElement) || !section.contains(active)) return null;
  const details = active.closest("summary")?.parentElement;
  if (!(details instanceof HTMLDetailsElement)) return null;
  if (details.dataset.faqItem !== undefined) return { kind: "item", index: details.dataset.faqItem };
  return details.dataset.faqMore !== undefined ? { kind: "toggle" } : null;
}

/**
 * A Space held while the accordion replaced its question is released on the replacement, where
 * Firefox activates nothing: a Space released before any keydown clicks it once. Returns a cancel.
 */
function finishHeldSpace(replacement: HTMLElement): () => void {
  const stop = () => {
    window.removeEventListener("keydown", stop, true);
    window.removeEventListener("keyup", onKeyUp, true);
  };
  function onKeyUp(event: globalThis.KeyboardEvent) {
    stop();
    if (event.key === " " && document.activeElement === replacement) replacement.click();
  }
  window.addEventListener("keydown", stop, true);
  window.addEventListener("keyup", onKeyUp, true);
  return stop;
}

function NativeItem({ faq, index }: { faq: FaqEntry; index: number }) {
  return (
    <details name={NATIVE_GROUP} data-faq-item={index} className="faq-item">
      <summary className="faq-question">
        <h3>{faq.question}</h3>
        <span className="faq-chevron">
          <Icon name="close" className="size-4 rotate-45" />
        </span>
      </summary>
      <div className="faq-answer">
        <p>{faq.answer}</p>
      </div>
    </details>
  );
}

/**
 * Native `<details>` until the section nears the viewport (or is pointed at or focused), then Radix
 * Accordion, keeping what was open and what had focus.
 */
export function Faq() {
  const section = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const [accordion, setAccordion] = useState<AccordionModule | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [openValue, setOpenValue] = useState<string | undefined>(undefined);
  const loading = useRef(false);
  const refocus = useRef<FocusedControl>(null);
  const toggleTop = useRef<number | null>(null);
  // Set by View More Questions until the button loses focus: Tab then goes to the first question shown.
  const tabToShown = useRef(false);

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    void import("./faq-accordion").then((mod) =>
      // Not while a pointer is held on the list: the release would click neither summary nor replacement.
      whenReleased(section.current, () =>
        // In one task: a tap between reading and swapping would be lost.
        flushSync(() => {
          const node = section.current;
          const more = node?.querySelector<HTMLDetailsElement>("details[data-faq-more]");
          const open = node?.querySelector<HTMLDetailsElement>("details[data-faq-item][open]");
          refocus.current = focusedControl(node);
          setShowAll(more?.open ?? false);
          setOpenValue(open ? `faq-${open.dataset.faqItem}` : undefined);
          setAccordion(mod);
        }),
      ),
    );
  };

  useBrowserLayoutEffect(() => {
    const target = refocus.current;
    refocus.current = null;
    if (!accordion || !target) return;
    const element =
      target.kind === "toggle"
        ? toggle.current
        : section.current?.querySelector<HTMLElement>(`[data-faq-trigger="${target.index}"]`);
    element?.focus({ preventScroll: true });
    if (element) return finishHeldSpace(element);
  }, [accordion]);

  // Questions come and go above the button: keep it where it was, and in view.
  useBrowserLayoutEffect(() => {
    const button = toggle.current;
    const before = toggleTop.current;
    toggleTop.current = null;
    if (!button || before === null) return;
    window.scrollBy({ top: button.getBoundingClientRect().top - before, behavior: "instant" });
    button.scrollIntoView({ block: "nearest", behavior: "instant" });
  }, [showAll]);

  const onToggle = (event: MouseEvent<HTMLButtonElement>) => {
    toggleTop.current = event.currentTarget.getBoundingClientRect().top;
    tabToShown.current = !showAll;
    setShowAll((value) => !value);
  };

  // The button keeps focus, but the next Tab goes to the questions it added above it.
  const onToggleKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== "Tab" || event.shiftKey || !tabToShown.current) return;
    const firstShown = section.current?.querySelector<HTMLElement>(`[data-faq-trigger="${faqInitialCount}"]`);
    if (!firstShown) return;
    event.preventDefault();
    firstShown.focus();
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
      className="band band-rule bg-paper"
      // The loader may render this part (an inline style) before React hydrates it: decision 036.
      suppressHydrationWarning
    >
      <div className="shell grid gap-8 lg:grid-cols-2 lg:grid-rows-[auto_1fr] lg:gap-x-16 lg:gap-y-6">
        <SectionHeading intro={faqIntro} id="faq-heading" />
        <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          {accordion ? (
            <>
              <accordion.FaqAccordion items={showAll ? faqs : first} defaultValue={openValue} />
              <button
                ref={toggle}
                type="button"
                aria-expanded={showAll}
                onClick={onToggle}
                onKeyDown={onToggleKeyDown}
                onBlur={() => (tabToShown.current = false)}
                className={TOGGLE_CLASS}
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
              {/* The summary must come first in <details>; drawn last (flex), as with JavaScript. */}
              <details data-faq-more className="group/more flex flex-col">
                <summary className={`${TOGGLE_CLASS} order-last`}>
                  <span className="group-open/more:hidden">{faqText.viewMore}</span>
                  <span className="hidden group-open/more:inline">{faqText.viewLess}</span>
                </summary>
                <div className="mt-3 space-y-3">
                  {rest.map((faq, index) => (
                    <NativeItem key={faq.question} faq={faq} index={index + faqInitialCount} />
                  ))}
                </div>
              </details>
            </div>
          )}
        </div>
        <p className="text-ink-600">
          {`${faqText.moreQuestions} `}
          <a href={`mailto:${site.email}`} className="link text-ink-950">
            {faqText.emailUs}
          </a>
        </p>
      </div>
    </section>
  );
}
