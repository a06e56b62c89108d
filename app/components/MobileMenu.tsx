import { type FocusEvent, type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from "react";

import { headerCta, headerLinks, navigationText } from "~/content/navigation";
import { useBrowserLayoutEffect } from "~/lib/browser-layout-effect";

import { Icon } from "./Icon";
import { Tooltip, TooltipGroup } from "./Tooltip";

// Without JavaScript the toggles target these (inside the fixed header: the page does not move).
const PANEL_ID = "mobile-menu";
const OPEN_TOGGLE_ID = "menu-toggle";

/** Where section links point: this page, or the home page (from the 404 and 400). */
export type SectionsOn = "" | "/";

function MenuLinks({ onChoose, sectionsOn }: { onChoose?: () => void; sectionsOn: SectionsOn }) {
  return (
    <nav aria-label={navigationText.mobileNavLabel} className="mx-auto max-w-7xl">
      <ul className="divide-y divide-white/10">
        {headerLinks.map((link) => (
          <li key={link.href}>
            <a
              href={`${sectionsOn}${link.href}`}
              onClick={onChoose}
              className="flex items-center justify-between py-4 text-lg font-medium text-white transition-colors hover:text-accent-400"
            >
              {link.label}
              <Icon name="arrow-right" className="size-5 text-ink-400" />
            </a>
          </li>
        ))}
      </ul>
      <a href={`${sectionsOn}${headerCta.href}`} onClick={onChoose} className="btn btn-accent mt-4 flex">
        {headerCta.label}
      </a>
    </nav>
  );
}

/**
 * The menu below `lg`. Without JavaScript the toggles are links and the panel is open while it is
 * the URL's target (decision 029). Hydration keeps these elements (a toggle replaced mid-tap is
 * clicked by no one) and enhances them: state (`data-menu`) decides, the toggles act as buttons,
 * and Escape, a link, a click outside or focus leaving close the menu. Each toggle's
 * `aria-expanded` is the state in which it is shown.
 */
export function MobileMenu({ sectionsOn = "" }: { sectionsOn?: SectionsOn }) {
  // null until JavaScript has taken over.
  const [open, setOpen] = useState<boolean | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const openToggle = useRef<HTMLAnchorElement>(null);
  const closeToggle = useRef<HTMLAnchorElement>(null);
  const focusNext = useRef<"open" | "close" | null>(null);

  // Taking over changes nothing on screen; the menu's fragments leave the address (a reload
  // would reopen it).
  useEffect(() => {
    setOpen(panel.current?.matches(":target") ?? false);
    const { hash, pathname, search } = window.location;
    if (hash === `#${PANEL_ID}` || hash === `#${OPEN_TOGGLE_ID}`)
      window.history.replaceState(window.history.state, "", `${pathname}${search}`);
  }, []);

  useBrowserLayoutEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === "open") openToggle.current?.focus();
    if (next === "close") closeToggle.current?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape") return;
      focusNext.current = "open";
      setOpen(false);
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

  // Focus Tabbing out would sit unseen behind the panel: leaving closes it (going nowhere does not).
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next)) setOpen(false);
  };

  // In place, no navigation; focus moves to the other toggle, which takes this one's place.
  const onToggle = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const opens = event.currentTarget.id === OPEN_TOGGLE_ID;
    if (document.activeElement === event.currentTarget) focusNext.current = opens ? "close" : "open";
    setOpen(opens);
  };
  // A button answers Space as well as Enter (Enter on a link arrives as a click).
  const onToggleKeyDown = (event: KeyboardEvent<HTMLAnchorElement>) => {
    if (event.key !== " ") return;
    event.preventDefault();
    event.currentTarget.click();
  };

  const enhanced = open !== null;
  const toggleProps = enhanced ? { role: "button", onClick: onToggle, onKeyDown: onToggleKeyDown } : {};
  // Each toggle is shown in the state its `aria-expanded` states, and leads to the other.
  const toggle = (opens: boolean) => {
    const label = opens ? navigationText.menuToggle : navigationText.menuClose;
    return (
      <Tooltip label={label}>
        <a
          ref={opens ? openToggle : closeToggle}
          id={opens ? OPEN_TOGGLE_ID : undefined}
          href={opens ? `#${PANEL_ID}` : `#${OPEN_TOGGLE_ID}`}
          aria-controls={PANEL_ID}
          aria-expanded={!opens}
          data-tooltip-trigger
          className={`menu-toggle menu-toggle-${opens ? "open" : "close"}`}
          {...toggleProps}
        >
          <span className="sr-only">{label}</span>
          <Icon name={opens ? "menu" : "close"} className="size-6" />
        </a>
      </Tooltip>
    );
  };

  return (
    <div
      ref={root}
      onBlur={onBlur}
      data-menu={enhanced ? (open ? "open" : "closed") : undefined}
      className="mobile-menu lg:hidden"
    >
      <TooltipGroup as="div">
        {toggle(true)}
        {toggle(false)}
      </TooltipGroup>
      <div ref={panel} id={PANEL_ID} className="menu-panel">
        <MenuLinks sectionsOn={sectionsOn} onChoose={enhanced ? () => setOpen(false) : undefined} />
      </div>
    </div>
  );
}
