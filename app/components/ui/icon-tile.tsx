import type { IconComponent } from "~/components/ui/icon";
import { cn } from "~/lib/cn";

/**
 * The rounded icon square of the overview cards (partner categories, Web3 topics): the card's
 * own gradient while it is available, muted while it is coming soon. Decorative.
 */
export function IconTile({ icon: Icon, available, gradient, className }: { icon: IconComponent; available: boolean; gradient: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn("flex size-14 items-center justify-center rounded-2xl", available ? gradient : "bg-white/10 text-muted", className)}
    >
      <Icon className="size-7" />
    </span>
  );
}
