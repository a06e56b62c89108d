import * as RadixTooltip from "@radix-ui/react-tooltip";
import { type ReactElement, type ReactNode, useRef, useState } from "react";

/** Loaded on demand by `Tooltip.tsx`. Timings are the spec's. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    // The content only repeats the control's name: close as the pointer leaves the control.
    <RadixTooltip.Provider delayDuration={700} skipDelayDuration={300} disableHoverableContent>
      {children}
    </RadixTooltip.Provider>
  );
}

export function TooltipRoot({ label, children }: { label: string; children: ReactElement }) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLElement | null>(null);
  const escaped = useRef(false);

  const onOpenChange = (next: boolean) => {
    if (next) escaped.current = false;
    // Radix closes on any scroll, and Tab scrolls a frame after opening it: keep it open while the
    // control has keyboard focus, until Escape or blur.
    else if (!escaped.current && trigger.current?.matches(":focus-visible")) return;
    setOpen(next);
  };

  return (
    <RadixTooltip.Root open={open} onOpenChange={onOpenChange}>
      <RadixTooltip.Trigger
        asChild
        ref={(node: HTMLElement | null) => {
          trigger.current = node;
        }}
      >
        {children}
      </RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          sideOffset={8}
          onEscapeKeyDown={() => {
            escaped.current = true;
          }}
          className="z-[60] rounded-sm border border-white/10 bg-ink-950 px-3 py-1.5 text-sm font-medium text-white shadow-lift"
        >
          {label}
          <RadixTooltip.Arrow className="fill-ink-950" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
