import { navigationText } from "~/content/navigation";

/** First focusable element of the page (after the consent bar while it asks, decision 047); visible only when focused. */
export function SkipLink() {
  return (
    <a href="#main" className="skip-link">
      {navigationText.skipLink}
    </a>
  );
}
