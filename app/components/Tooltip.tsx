import {
  createContext,
  type ElementType,
  type ReactElement,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { flushSync } from "react-dom";

import { whenReleased } from "~/lib/when-released";

type TooltipModule = typeof import("./tooltip-radix");

// One shared, lazily loaded copy of Radix Tooltip for the whole page.
let loadedModule: TooltipModule | null = null;
let pending: Promise<void> | null = null;
const subscribers = new Set<() => void>();

function loadTooltipModule() {
  pending ??= import("./tooltip-radix").then((mod) => {
    loadedModule = mod;
    subscribers.forEach((notify) => notify());
  });
  return pending;
}

function subscribe(notify: () => void) {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}

function useTooltipModule(): TooltipModule | null {
  return useSyncExternalStore(
    subscribe,
    () => loadedModule,
    () => null,
  );
}

/**
 * When Radix is loaded. Tooltips are a hover affordance: on a device with a fine, hovering
 * pointer it is fetched as soon as the browser is idle after hydration, so controls are enhanced
 * before anyone reaches them (swapping in Radix re-creates the controls' DOM). On touch devices
 * it waits for a keyboard Tab or a mouse movement, so phones never pay for it on first load.
 * Returns a cleanup.
 */
function preloadOnFirstInteraction(): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Tab") start();
  };
  const onPointerMove = (event: PointerEvent) => {
    if (event.pointerType === "mouse") start();
  };
  const stop = () => {
    document.removeEventListener("keydown", onKeyDown);
    document.removeEventListener("pointermove", onPointerMove);
  };
  const start = () => {
    stop();
    void loadTooltipModule();
  };
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("pointermove", onPointerMove, { passive: true });
  if (!window.matchMedia("(hover: hover) and (pointer: fine)").matches) return stop;
  const idle = window.requestIdleCallback
    ? window.requestIdleCallback(start, { timeout: 2000 })
    : window.setTimeout(start, 1000);
  return () => {
    stop();
    if (window.cancelIdleCallback) window.cancelIdleCallback(idle);
    else window.clearTimeout(idle);
  };
}

/** The module a group's tooltips render with: null until the group has swapped Radix in. */
const GroupModule = createContext<TooltipModule | null>(null);

// useLayoutEffect warns during server rendering; it only matters in the browser.
const useBrowserLayoutEffect = typeof document === "undefined" ? () => {} : useLayoutEffect;

interface TooltipGroupProps {
  as?: ElementType;
  /**
   * Also load Radix when the group comes within this distance of the viewport (CSS margin), so
   * the controls are already enhanced when the visitor reaches them.
   */
  preloadMargin?: string;
  className?: string;
  children: ReactNode;
}

/**
 * A group of icon-only controls sharing tooltip timing (skip delay). Until the visitor points at
 * or focuses one of them the controls are plain HTML; then Radix is loaded and takes over. If the
 * swap happens while a control has keyboard focus, focus is put back on it (so its tooltip opens).
 * Swapping in Radix re-creates the controls' elements: it waits while the visitor holds a pointer
 * down in the group, so that the press and its release land on the same control.
 */
export function TooltipGroup({ as: Tag = "div", className, preloadMargin, children }: TooltipGroupProps) {
  const loaded = useTooltipModule();
  const [mod, setMod] = useState<TooltipModule | null>(null);
  const container = useRef<HTMLElement>(null);
  const focusedIndex = useRef<number | null>(null);
  const pointerPressed = useRef(false);

  const wake = (target: EventTarget | null, viaFocus: boolean) => {
    if (mod) return;
    // Focus that comes from a tap or click is not restored: the tooltip would pop up under the finger.
    if (viaFocus && !pointerPressed.current && target instanceof Element && container.current) {
      const triggers = Array.from(container.current.querySelectorAll("[data-tooltip-trigger]"));
      const index = triggers.findIndex((trigger) => trigger.contains(target));
      focusedIndex.current = index >= 0 ? index : null;
    }
    void loadTooltipModule();
  };

  useEffect(() => (loadedModule ? undefined : preloadOnFirstInteraction()), []);

  useEffect(() => {
    if (!loaded || mod) return;
    return whenReleased(container.current, () => flushSync(() => setMod(loaded)));
  }, [loaded, mod]);

  useEffect(() => {
    const node = container.current;
    if (!preloadMargin || loadedModule || !node || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void loadTooltipModule();
      },
      { rootMargin: `0px 0px ${preloadMargin} 0px` },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [preloadMargin]);

  useBrowserLayoutEffect(() => {
    const index = focusedIndex.current;
    focusedIndex.current = null;
    if (!mod || index === null || !container.current) return;
    const triggers = container.current.querySelectorAll<HTMLElement>("[data-tooltip-trigger]");
    const trigger = triggers[index];
    const active = document.activeElement;
    if (trigger && active instanceof HTMLElement && trigger.contains(active)) {
      // The control kept its node and its focus through the swap, so Radix never saw that focus:
      // replay it, or a keyboard user would get no tooltip when the module loads late.
      active.blur();
      active.focus({ preventScroll: true });
      return;
    }
    if (active && active !== document.body) return;
    trigger?.focus({ preventScroll: true });
  }, [mod]);

  return (
    <Tag
      ref={container}
      className={className}
      onPointerOver={(event: React.PointerEvent) => wake(event.target, false)}
      onPointerDown={() => {
        pointerPressed.current = true;
      }}
      onFocus={(event: React.FocusEvent) => wake(event.target, true)}
    >
      <GroupModule.Provider value={mod}>
        {mod ? <mod.TooltipProvider>{children}</mod.TooltipProvider> : children}
      </GroupModule.Provider>
    </Tag>
  );
}

interface TooltipProps {
  label: string;
  /** The icon-only control; it must accept a ref and carry `data-tooltip-trigger`. */
  children: ReactElement;
}

/** A tooltip showing an icon-only control's label. Must sit inside a `TooltipGroup`. */
export function Tooltip({ label, children }: TooltipProps) {
  const mod = useContext(GroupModule);
  return mod ? <mod.TooltipRoot label={label}>{children}</mod.TooltipRoot> : children;
}
