import { navigationText } from "~/content/navigation";

export function SkipLink() {
  return (
    <a href="#main" className="skip-link">
      {navigationText.skipLink}
    </a>
  );
}
