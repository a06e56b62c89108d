import { type FocusEvent, useEffect, useRef, useState } from "react";

import { headerCta, headerLinks, navigationText } from "~/content/navigation";
import { useBrowserLayoutEffect } from "~/lib/browser-layout-effect";

import { Icon } from "./Icon";
import { Tooltip, TooltipGroup } from "./Tooltip";

// Fragments of the menu before JavaScript: opening targets the panel, closing targets the open
// toggle (both inside the fixed header, so neither moves the page).
const PANEL_ID = "mobile-menu";
const OPEN_TOGGLE_ID = "menu-toggle";

/** What `focusedMenuControl` returns for either toggle link. */
const TOGGLE = "toggle";

/**
 * Which of the menu's controls has focus: `TOGGLE` for the open or close link of the version
 * without JavaScript, the `href` of one of its links, or null.
 */
function focusedMenuControl(menu: HTMLElement | null): string | null {
  const active = document.activeElement;
  if (!menu || !(active instanceof HTMLAnchorElement) || !menu.contains(active)) return null;
  return active.hasAttribute("aria-controls") ? TOGGLE : active.getAttribute("href");
}

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
 * The menu below the `lg` breakpoint. Before JavaScript (and without it) the panel is open while it
 * is the URL's target (`#mobile-menu`): a link opens it, another closes it, and choosing a section
 * moves the target to that section, which closes the menu as the page lands there (decision 029).
 * Once hydrated it becomes a button with `aria-expanded` that closes on Escape (focus back on the
 * toggle), on choosing a link, on a click outside and when focus leaves it for the page.
 */
export function MobileMenu({ sectionsOn = "" }: { sectionsOn?: SectionsOn }) {
  const [enhanced, setEnhanced] = useState(false);
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);

  // The control that had focus when the button replaced the links: focus goes to its counterpart.
  const refocus = useRef<string | null>(null);

  useEffect(() => {
    // The menu's state as the links left it at hydration (read again in the swap's commit below).
    setOpen(root.current?.querySelector(`#${PANEL_ID}:target`) != null);
    refocus.current = focusedMenuControl(root.current);
    setEnhanced(true);
  }, []);

  // JavaScript arrives when the visitor first interacts (decision 036), often by tapping or tabbing
  // to the menu itself. In the commit that puts the button in place of the links, before the browser
  // paints it: keep what the visitor did with the links until that very moment, drop the menu's own
  // fragment from the address (from now on the button holds the state, and a reload should not
  // reopen it), and move focus to the button (or to the same link). Without JavaScript the panel is
  // open exactly while the address ends in its fragment, so the address is what is read: the panel
  // that was the URL's target has already been replaced in this commit (its ref is null here), and a
  // tap on the link toggle just before the commit was lost when it was read any other way (the
  // three-engine menu test saw it twice in WebKit).
  useBrowserLayoutEffect(() => {
    if (!enhanced) return;
    const hash = window.location.hash;
    if (hash === `#${PANEL_ID}`) setOpen(true);
    if (hash === `#${PANEL_ID}` || hash === `#${OPEN_TOGGLE_ID}`) {
      const { pathname, search } = window.location;
      window.history.replaceState(window.history.state, "", `${pathname}${search}`);
    }
    const target = refocus.current;
    refocus.current = null;
    if (target === null) return;
    const element =
      target === TOGGLE ? toggle.current : root.current?.querySelector<HTMLElement>(`a[href="${target}"]`);
    element?.focus({ preventScroll: true });
  }, [enhanced]);

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

  // The panel covers the page below the header: focus that Tabs on past its last link (or back
  // before the toggle) would sit behind it, unseen (issue 24). Leaving the menu closes it, so
  // whatever now has focus is on screen. A focus that goes nowhere (another window, a click on the
  // panel's padding) leaves it open.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next)) setOpen(false);
  };

  if (!enhanced) {
    return (
      <div ref={root} className="group/menu lg:hidden">
        <a
          id={OPEN_TOGGLE_ID}
          href={`#${PANEL_ID}`}
          aria-controls={PANEL_ID}
          className="menu-toggle inline-flex group-has-[#mobile-menu:target]/menu:hidden"
        >
          <span className="sr-only">{navigationText.menuToggle}</span>
          <Icon name="menu" className="size-6" />
        </a>
        <a
          href={`#${OPEN_TOGGLE_ID}`}
          aria-controls={PANEL_ID}
          className="menu-toggle hidden group-has-[#mobile-menu:target]/menu:inline-flex"
        >
          <span className="sr-only">{navigationText.menuClose}</span>
          <Icon name="close" className="size-6" />
        </a>
        <div id={PANEL_ID} className="menu-panel hidden target:block">
          <MenuLinks sectionsOn={sectionsOn} />
        </div>
      </div>
    );
  }

  return (
    <div ref={root} onBlur={onBlur} className="lg:hidden">
      <TooltipGroup as="div">
        <Tooltip label={navigationText.menuToggle}>
          <button
            ref={toggle}
            type="button"
            data-tooltip-trigger
            aria-expanded={open}
            aria-controls={PANEL_ID}
            onClick={() => setOpen((value) => !value)}
            className="menu-toggle inline-flex"
          >
            <span className="sr-only">{navigationText.menuToggle}</span>
            <Icon name={open ? "close" : "menu"} className="size-6" />
          </button>
        </Tooltip>
      </TooltipGroup>
      <div id={PANEL_ID} hidden={!open} className="menu-panel">
        <MenuLinks sectionsOn={sectionsOn} onChoose={() => setOpen(false)} />
      </div>
    </div>
  );
}
