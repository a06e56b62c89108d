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

/** Which FAQ control had focus when the accordion replaced the native markup. */
type FocusedControl = { kind: "item"; index: string } | { kind: "toggle" } | null;

/**
 * View More Questions / View Less, the same in both versions of the list. No text colour of its
 * own: it inherits the page's ink, and a utility colour here would outrank `btn-line`'s hover
 * colours (ink text on the ink hover background, 1:1).
 */
const TOGGLE_CLASS = "btn btn-line mt-6 w-fit cursor-pointer";

/** Server HTML's native items share one `name`: the browser keeps one open at most (exclusive accordion). */
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
 * Space activates a button or a <summary> when it is released, on the element that has focus
 * then. Held on a question while the accordion replaced it, its release comes to the replacement,
 * which never saw it go down: Firefox then activates nothing, and the visitor's press is lost
 * (a held pointer is waited for instead, `whenReleased`, but a held key leaves no trace
 * in the page to wait for). So the first key event the replacement gets decides: a Space released
 * that it never saw pressed is that press, and clicks it once; any other key, pressed anew, is the
 * visitor's own next step. Returns a cancel.
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
 * The FAQ. Server HTML is native `<details>`: every answer is reachable without JavaScript.
 * When the section approaches the viewport (or is pointed at or focused), Radix Accordion is
 * loaded and replaces it with the same classes and sizes, keeping whatever was open and the
 * control that had focus.
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
  // Set by View More Questions until the button loses focus: the next Tab goes to the first
  // question it showed, which sits above the button.
  const tabToShown = useRef(false);

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    void import("./faq-accordion").then((mod) =>
      // Not while the visitor holds a pointer down on the list: the <summary> they pressed would be
      // gone before their release, which would then click neither it nor its replacement (issue
      // 35). Once they let go, their click has opened or closed its <details>, and the swap reads it.
      whenReleased(section.current, () =>
        // Read the native list and swap the accordion in, in this same task (flushSync): a tap
        // handled between the two would open a <details> the accordion no longer knows about.
        flushSync(() => {
          const node = section.current;
          const more = node?.querySelector<HTMLDetailsElement>("details[data-faq-more]");
          const open = node?.querySelector<HTMLDetailsElement>("details[data-faq-item][open]");
          // The swap removes the focused <summary>: remember it so focus moves to its counterpart.
          refocus.current = focusedControl(node);
          setShowAll(more?.open ?? false);
          setOpenValue(open ? `faq-${open.dataset.faqItem}` : undefined);
          setAccordion(mod);
        }),
      ),
    );
  };

  // Before the browser paints the accordion, put focus back where the visitor had it.
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

  // View More / View Less add or remove questions above the button: keep the button where the
  // visitor's finger or eyes are, and in any case in view below the fixed header.
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

  // The questions View More Questions adds come before the button, in the reading order as on
  // screen; the button keeps focus (it did what was asked, and View Less is right there), but the
  // visitor's next step is the new questions, not "Email us" below.
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
      {/* From lg the heading and the e-mail invitation sit beside the questions. */}
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
              {/* The summary must come first in <details>, so Tab after View More Questions
                  reaches the questions it showed; drawn last (a flex column), View Less follows
                  the last question as it does with JavaScript. Browsers that cannot lay out
                  <details> as flex keep it above them. */}
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
