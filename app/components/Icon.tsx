import type { IconName } from "~/content/types";

/** The id of an icon's `<symbol>` in the page's sprite (`IconSprite`). */
export function iconSymbolId(name: IconName) {
  return `icon-${name}`;
}

interface IconProps {
  name: IconName;
  className?: string;
  /** Filled shapes (e.g. rating stars) instead of outlines. */
  filled?: boolean;
}

/**
 * A decorative SVG icon: hidden from assistive technology; the control around it carries the label.
 * It draws the sprite's symbol with `<use>`, so each shape is in the document once however often it
 * appears. Fill and stroke are set here and inherited by the symbol's path.
 */
export function Icon({ name, className = "size-6", filled = false }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill={filled ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <use href={`#${iconSymbolId(name)}`} />
    </svg>
  );
}
