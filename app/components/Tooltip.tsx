import {
  createContext,
  type ElementType,
  type ReactElement,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { flushSync } from "react-dom";

import { useBrowserLayoutEffect } from "~/lib/browser-layout-effect";
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
 * With a hovering pointer, Radix loads when idle after hydration, before anyone reaches a control
 * (the swap re-creates its DOM); on touch, at a Tab or a mouse move, so phones never pay for it.
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

interface TooltipGroupProps {
  as?: ElementType;
  /** Also load Radix when the group comes this close to the viewport (a CSS margin). */
  preloadMargin?: string;
  className?: string;
  children: ReactNode;
}

/**
 * Icon-only controls sharing tooltip timing: plain HTML until pointed at or focused, then Radix. The
 * swap re-creates their elements, so it waits for a held pointer's release, and restores focus.
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
      // The node kept its focus through the swap, unseen by Radix: replay it, or no tooltip opens.
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

/** Must sit inside a `TooltipGroup`. */
export function Tooltip({ label, children }: TooltipProps) {
  const mod = useContext(GroupModule);
  return mod ? <mod.TooltipRoot label={label}>{children}</mod.TooltipRoot> : children;
}
