import * as RadixTooltip from "@radix-ui/react-tooltip";
import type { ReactElement, ReactNode } from "react";

/**
 * The Radix half of the tooltip, loaded on demand by `Tooltip.tsx` so that it never weighs on
 * the first page load. Timings are the spec's: open after 700 ms, 300 ms skip delay.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    // The content only repeats the control's accessible name, so it closes as soon as the
    // pointer leaves the control instead of waiting for it to travel onto the bubble.
    <RadixTooltip.Provider delayDuration={700} skipDelayDuration={300} disableHoverableContent>
      {children}
    </RadixTooltip.Provider>
  );
}

export function TooltipRoot({ label, children }: { label: string; children: ReactElement }) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          sideOffset={8}
          className="z-[60] rounded-sm border border-white/10 bg-ink-950 px-3 py-1.5 text-sm font-medium text-white shadow-lift"
        >
          {label}
          <RadixTooltip.Arrow className="fill-ink-950" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
