import { type FocusEvent, type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from "react";

import { headerCta, headerLinks, navigationText } from "~/content/navigation";
import { useBrowserLayoutEffect } from "~/lib/browser-layout-effect";

import { Icon } from "./Icon";
import { Tooltip, TooltipGroup } from "./Tooltip";

// Fragments of the menu without JavaScript: opening targets the panel, closing targets the open
// toggle (both inside the fixed header, so neither moves the page).
const PANEL_ID = "mobile-menu";
const OPEN_TOGGLE_ID = "menu-toggle";

/** Where the header's section links point: this page, or the home page (from the 404 and 400). */
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
 * The menu below the `lg` breakpoint: two toggles in one place, Menu (shown while the menu is
 * closed) and Close menu (shown while it is open), and the panel. Without JavaScript, and until it
 * takes over, the toggles are links and the panel is open while it is the URL's target
 * (`#mobile-menu`): Menu targets the panel, Close menu targets Menu, and choosing a section moves
 * the target to that section, which closes the menu as the page lands there (decision 029).
 *
 * Hydration keeps these very elements (a toggle replaced between a tap's press and its
 * release is clicked by no one) and only enhances them: from then on the component's state decides
 * (`data-menu` on the root, which the stylesheet reads instead of `:target`), the toggles act as
 * buttons (`role="button"`, Enter and Space, no navigation: no history entry, and a reload never
 * reopens the menu), and the menu closes on Escape (focus back on Menu), on choosing a link, on a
 * click outside and when focus leaves it for the page. Each toggle's `aria-expanded` is the state
 * in which it is shown, so it is true with and without JavaScript.
 */
export function MobileMenu({ sectionsOn = "" }: { sectionsOn?: SectionsOn }) {
  // null until JavaScript has taken over: until then the URL's target decides (`:target`).
  const [open, setOpen] = useState<boolean | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const openToggle = useRef<HTMLAnchorElement>(null);
  const closeToggle = useRef<HTMLAnchorElement>(null);
  // The toggle to focus once the new state is on screen: the focused one has just been hidden.
  const focusNext = useRef<"open" | "close" | null>(null);

  // Taking over: the state is what the visitor sees (the panel is open while it is the URL's
  // target), so nothing on screen changes, and a press in progress ends on the element it began on.
  // From now on the state holds it: the menu's own fragments leave the address, so that a reload
  // does not reopen the menu.
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

  // The panel covers the page below the header: focus that Tabs on past its last link (or back
  // before the toggle) would sit behind it, unseen. Leaving the menu closes it, so
  // whatever now has focus is on screen. A focus that goes nowhere (another window, a click on the
  // panel's padding) leaves it open.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next)) setOpen(false);
  };

  // Each toggle does what its name says, in place (no navigation). Focus, if the toggle had it,
  // goes to the other one, which takes its place on screen.
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

  return (
    <div
      ref={root}
      onBlur={onBlur}
      data-menu={enhanced ? (open ? "open" : "closed") : undefined}
      className="mobile-menu lg:hidden"
    >
      <TooltipGroup as="div">
        <Tooltip label={navigationText.menuToggle}>
          <a
            ref={openToggle}
            id={OPEN_TOGGLE_ID}
            href={`#${PANEL_ID}`}
            aria-controls={PANEL_ID}
            aria-expanded="false"
            data-tooltip-trigger
            className="menu-toggle menu-toggle-open"
            {...toggleProps}
          >
            <span className="sr-only">{navigationText.menuToggle}</span>
            <Icon name="menu" className="size-6" />
          </a>
        </Tooltip>
        <Tooltip label={navigationText.menuClose}>
          <a
            ref={closeToggle}
            href={`#${OPEN_TOGGLE_ID}`}
            aria-controls={PANEL_ID}
            aria-expanded="true"
            data-tooltip-trigger
            className="menu-toggle menu-toggle-close"
            {...toggleProps}
          >
            <span className="sr-only">{navigationText.menuClose}</span>
            <Icon name="close" className="size-6" />
          </a>
        </Tooltip>
      </TooltipGroup>
      <div ref={panel} id={PANEL_ID} className="menu-panel">
        <MenuLinks sectionsOn={sectionsOn} onChoose={enhanced ? () => setOpen(false) : undefined} />
      </div>
    </div>
  );
}
