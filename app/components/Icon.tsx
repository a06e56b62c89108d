import type { IconName } from "~/content/types";

/** Stroke paths on a 24×24 grid, drawn for this site. */
const paths: Record<IconName, string> = {
  chat: "M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.5 4v-4h0A1.5 1.5 0 0 1 4 14.5zM8.5 9.5h.01M12 9.5h.01M15.5 9.5h.01",
  workflow: "M4 4h6v6H4zM14 14h6v6h-6zM7 10v4a3 3 0 0 0 3 3h4M17 14v-4a3 3 0 0 0-3-3h-4",
  chart: "M4 20V4M4 20h16M8 16v-4M12 16V8M16 16v-6M20 7l-4 3-4-2-4 4",
  channels: "M3 12h4l3-7 4 14 3-7h4",
  revenue: "M4 17l5-5 4 4 7-8M14 8h6v6",
  spark: "M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5 18 18M6 18l2.5-2.5M15.5 8.5 18 6",
  users:
    "M16 20v-1.5A3.5 3.5 0 0 0 12.5 15h-5A3.5 3.5 0 0 0 4 18.5V20M10 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM20 20v-1.5a3.5 3.5 0 0 0-2.5-3.35M15 4.15a3.5 3.5 0 0 1 0 6.7",
  rocket: "M14 4c3-1 6 0 6 0s1 3 0 6l-6 6-6-6zM8 10l-3 1-2 3 5 0M14 16l-1 3-3 2 0-5M15 9h.01",
  dollar:
    "M12 3v18M16.5 7.5C16 6 14.5 5 12 5s-4.5 1.2-4.5 3.2c0 4.3 9 2.3 9 6.6 0 2-2 3.2-4.5 3.2S7.5 17 7 15.5",
  heart: "M12 20s-7.5-4.6-7.5-10A4.5 4.5 0 0 1 12 7a4.5 4.5 0 0 1 7.5 3c0 5.4-7.5 10-7.5 10z",
  discord:
    "M7 7.5c3.3-1.3 6.7-1.3 10 0M7 16.5c3.3 1.3 6.7 1.3 10 0M7 7.5 5 16.5M17 7.5l2 9M7 7.5 8.5 5M17 7.5 15.5 5M9.5 12.5h.01M14.5 12.5h.01",
  trophy: "M8 4h8v5a4 4 0 0 1-8 0zM8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4M12 13v4M8.5 20h7M10 17h4",
  camera:
    "M4 8a4 4 0 0 1 4-4h8a4 4 0 0 1 4 4v8a4 4 0 0 1-4 4H8a4 4 0 0 1-4-4zM12 15.5a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM16.5 7.5h.01",
  video:
    "M4 6.5A2.5 2.5 0 0 1 6.5 4h11A2.5 2.5 0 0 1 20 6.5v11a2.5 2.5 0 0 1-2.5 2.5h-11A2.5 2.5 0 0 1 4 17.5zM10 9v6l5-3z",
  clock: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2",
  shield: "M12 3l7 3v5c0 4.5-3 8.2-7 10-4-1.8-7-5.5-7-10V6zM9 12l2 2 4-4",
  bolt: "M13 3 5 13.5h6L10 21l8-10.5h-6z",
  calendar: "M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zM4 10h16M8 3v4M16 3v4",
  check: "M5 12.5l4.5 4.5L19 7.5",
  mail: "M4 6h16v12H4zM4 7l8 6 8-6",
  pin: "M12 21s-6.5-6-6.5-11a6.5 6.5 0 0 1 13 0c0 5-6.5 11-6.5 11zM12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z",
  book: "M4 5.5A1.5 1.5 0 0 1 5.5 4H11v16H5.5A1.5 1.5 0 0 1 4 18.5zM20 5.5A1.5 1.5 0 0 0 18.5 4H13v16h5.5a1.5 1.5 0 0 0 1.5-1.5z",
  "arrow-right": "M5 12h14M13 6l6 6-6 6",
  "chevron-down": "M6 9l6 6 6-6",
  star: "M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.8-5.2 2.8 1-5.8-4.3-4.1 5.9-.9z",
  menu: "M4 7h16M4 12h16M4 17h16",
  close: "M6 6l12 12M18 6 6 18",
  "trend-down": "M4 7l6 6 4-4 6 6M14 15h6V9",
};

interface IconProps {
  name: IconName;
  className?: string;
  /** Filled shapes (e.g. rating stars) instead of outlines. */
  filled?: boolean;
}

/**
 * A decorative inline SVG icon: hidden from assistive technology; the control around it carries
 * the label. Its stroke is styled by the stylesheet's `.icon`, not repeated on every icon.
 */
export function Icon({ name, className = "size-6", filled = false }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={`icon ${filled ? "fill-current " : ""}${className}`}
      aria-hidden="true"
    >
      <path d={paths[name]} />
    </svg>
  );
}
