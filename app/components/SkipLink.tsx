import { navigationText } from "~/content/navigation";

/** First focusable element of the page; visible only when focused. */
export function SkipLink() {
  return (
    <a href="#main" className="skip-link">
      {navigationText.skipLink}
    </a>
  );
}
