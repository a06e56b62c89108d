import { useEffect } from "react";

function isPlainLeftClick(event: MouseEvent) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * Gives each `#section` jump a history entry with its own router key and index (a native jump leaves
 * the router's state behind), then scrolls and focuses as a native jump does.
 */
export function InPageLinks() {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || !isPlainLeftClick(event)) return;
      const anchor = event.target instanceof Element ? event.target.closest("a[href^='#']") : null;
      const href = anchor?.getAttribute("href");
      if (!anchor || !href || href === "#" || anchor.hasAttribute("target")) return;
      const target = document.getElementById(decodeURIComponent(href.slice(1)));
      if (!target) return;
      event.preventDefault();

      const state: unknown = window.history.state;
      const previous = state && typeof state === "object" ? (state as Record<string, unknown>) : {};
      const idx = typeof previous.idx === "number" ? previous.idx + 1 : undefined;
      const key = Math.random().toString(36).slice(2, 10);
      if (window.location.hash !== href) window.history.pushState({ ...previous, key, idx }, "", href);

      target.scrollIntoView({ block: "start" });
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
  return null;
}
