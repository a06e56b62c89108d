import type { IconName } from "~/content/types";

interface IconProps {
  name: IconName;
  className?: string;
}

/**
 * A decorative icon: hidden from assistive technology; the control around it carries the label.
 * One empty box drawn by the stylesheet (`app/styles/icons.css`): its stroke is a mask over the text
 * colour. Inline SVG made each icon two elements, styled and laid out with the page, and put every
 * path in every document (decision 036).
 */
export function Icon({ name, className = "size-6" }: IconProps) {
  return <span aria-hidden="true" className={`icon icon-${name} ${className}`} />;
}
