import { Tooltip as TooltipPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/cn";

// Spec §9: tooltips appear after 700 ms, skip-delay 300 ms, offset 4 px.
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
export const TOOLTIP_OFFSET_PX = 4;

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

export const Tooltip = TooltipPrimitive.Root;
export const TooltipTrigger = TooltipPrimitive.Trigger;

export function TooltipContent({
  className,
  sideOffset = TOOLTIP_OFFSET_PX,
  container,
  ...props
}: ComponentProps<typeof TooltipPrimitive.Content> & {
  /** Where to portal the tooltip; pass an element inside <main> to keep it within a landmark (axe "region"). */
  container?: HTMLElement | null;
}) {
  return (
    <TooltipPrimitive.Portal container={container}>
      <TooltipPrimitive.Content
        sideOffset={sideOffset}
        className={cn("z-50 rounded-md bg-white px-2.5 py-1.5 text-xs font-medium text-[#0b0b12] shadow-lg", className)}
        {...props}
      />
    </TooltipPrimitive.Portal>
  );
}
