import type { IconName } from "~/content/types";

interface IconProps {
  name: IconName;
  className?: string;
}

/** Decorative (the control carries the label); drawn by `app/styles/icons.css` (decision 036). */
export function Icon({ name, className = "size-6" }: IconProps) {
  return <span aria-hidden="true" className={`icon icon-${name} ${className}`} />;
}
