import { navigationText } from "~/content/navigation";

/** First focusable element of the page; visible only when focused. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[100] focus:rounded-full focus:bg-accent-400 focus:px-5 focus:py-3 focus:font-semibold focus:text-ink-950"
    >
      {navigationText.skipLink}
    </a>
  );
}
