/** Class names shared by the native FAQ markup and the Radix accordion, so swapping them moves nothing. */
export const faqItemClass =
  "group rounded-2xl border border-ink-200/80 bg-white transition-colors hover:border-ink-300 data-[state=open]:border-ink-300 open:border-ink-300";
export const faqQuestionClass =
  "flex w-full cursor-pointer items-center justify-between gap-6 px-6 py-5 text-left text-base font-semibold text-ink-950 sm:text-lg";
export const faqChevronClass =
  "flex size-8 shrink-0 items-center justify-center rounded-full bg-ink-100 text-ink-900 transition-transform duration-200 group-open:rotate-45 group-data-[state=open]:rotate-45";
export const faqAnswerClass = "px-6 pb-6 leading-relaxed text-ink-600";
export const faqToggleClass =
  "mx-auto mt-8 flex min-h-12 w-fit cursor-pointer items-center justify-center rounded-full px-6 font-semibold text-ink-950 ring-1 ring-ink-300 transition-colors hover:bg-ink-950 hover:text-white";
