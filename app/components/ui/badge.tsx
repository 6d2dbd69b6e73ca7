import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "~/lib/cn";

export const badgeVariants = cva(
  "inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
  {
    variants: {
      variant: {
        default: "border-transparent bg-white/10 text-fg",
        accent: "border-transparent bg-[#ff7a45]/20 text-[#ffc2a6]",
        outline: "border-border text-muted",
        soon: "border-transparent bg-[#8b5cf6]/25 text-[#d9c9ff]",
        warning: "border-transparent bg-amber-400/20 text-amber-200",
      },
    },
    defaultVariants: { variant: "default" },
  },
);

export function Badge({
  className,
  variant,
  ...props
}: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
