import { useEffect, useRef, useState } from "react";

import { headerCta, headerLinks, navigationText } from "~/content/navigation";

import { Icon } from "./Icon";
import { Tooltip, TooltipGroup } from "./Tooltip";

const panelClass =
  "absolute inset-x-0 top-full max-h-[calc(100dvh-var(--header-height))] overflow-y-auto border-b border-white/10 bg-ink-950 px-4 pb-6 pt-2 shadow-2xl shadow-black/40 sm:px-6";
const toggleClass =
  "inline-flex size-11 items-center justify-center rounded-full text-white ring-1 ring-white/15 transition-colors hover:bg-white/10 hover:ring-white/30";

function MenuLinks({ onChoose }: { onChoose?: () => void }) {
  return (
    <nav aria-label={navigationText.mobileNavLabel} className="mx-auto max-w-7xl">
      <ul className="divide-y divide-white/10">
        {headerLinks.map((link) => (
          <li key={link.href}>
            <a
              href={link.href}
              onClick={onChoose}
              className="flex items-center justify-between py-4 text-lg font-medium text-white transition-colors hover:text-accent-400"
            >
              {link.label}
              <Icon name="arrow-right" className="size-5 text-ink-400" />
            </a>
          </li>
        ))}
      </ul>
      <a
        href={headerCta.href}
        onClick={onChoose}
        className="mt-4 flex min-h-12 items-center justify-center rounded-full bg-accent-400 px-6 font-semibold text-ink-950 transition-colors hover:bg-accent-300"
      >
        {headerCta.label}
      </a>
    </nav>
  );
}

/**
 * The menu below the `lg` breakpoint. The server sends a native `<details>` disclosure, so it
 * opens without JavaScript; once hydrated it becomes a button with `aria-expanded` that closes
 * on Escape (focus back on the toggle), on choosing a link and on a click outside.
 */
export function MobileMenu() {
  const [enhanced, setEnhanced] = useState(false);
  const [open, setOpen] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Keep what the visitor did before hydration finished.
    setOpen(details.current?.open ?? false);
    setEnhanced(true);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && event.target instanceof Node && !root.current.contains(event.target))
        setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open]);

  if (!enhanced) {
    return (
      <details ref={details} className="group lg:hidden">
        <summary className={toggleClass}>
          <span className="sr-only">{navigationText.menuToggle}</span>
          <Icon name="menu" className="size-6 group-open:hidden" />
          <Icon name="close" className="hidden size-6 group-open:block" />
        </summary>
        <div id="mobile-menu" className={panelClass}>
          <MenuLinks />
        </div>
      </details>
    );
  }

  return (
    <div ref={root} className="lg:hidden">
      <TooltipGroup as="div">
        <Tooltip label={navigationText.menuToggle}>
          <button
            ref={toggle}
            type="button"
            data-tooltip-trigger
            aria-expanded={open}
            aria-controls="mobile-menu"
            onClick={() => setOpen((value) => !value)}
            className={toggleClass}
          >
            <span className="sr-only">{navigationText.menuToggle}</span>
            <Icon name={open ? "close" : "menu"} className="size-6" />
          </button>
        </Tooltip>
      </TooltipGroup>
      <div id="mobile-menu" hidden={!open} className={panelClass}>
        <MenuLinks onChoose={() => setOpen(false)} />
      </div>
    </div>
  );
}
