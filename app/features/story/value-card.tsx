import type { ValueCard as ValueCardData } from "~/content/mission";
import { cn } from "~/lib/cn";
import { IconTile } from "./story-icon";

/** A card with an icon, a title (h3) and a short body — mission, vision and principle cards. */
export function ValueCard({ card, color, className }: { card: ValueCardData; color?: string; className?: string }) {
  return (
    <article className={cn("card flex h-full flex-col gap-4 p-6 sm:p-7", className)}>
      <IconTile name={card.icon} color={color} />
      <h3 className="text-xl font-semibold tracking-tight text-balance">{card.title}</h3>
      <p className="leading-relaxed text-pretty text-muted">{card.body}</p>
    </article>
  );
}
