import { ArrowRight } from "~/components/ui/icons/arrow-right";
import { Clapperboard } from "~/components/ui/icons/clapperboard";
import { MonitorPlay } from "~/components/ui/icons/monitor-play";
import { Music } from "~/components/ui/icons/music";
import { Link } from "~/components/ui/link";
import type { PartnerCategoryCard as CategoryCard } from "~/content/partners";
import { Badge } from "~/components/ui/badge";
import { IconTile } from "~/components/ui/icon-tile";
import { cn } from "~/lib/cn";

const icons = { music: Music, film: Clapperboard, video: MonitorPlay } as const;

/**
 * product-rules §2 "Partners overview". The whole card is one link (its title, stretched over the
 * card), so keyboard users meet one tab stop per card. "Learn More" is the visual
 * affordance of that link; unavailable cards show "Coming Soon" instead (ADR 0032).
 */
export function PartnerCategoryCard({ card, partnerCount }: { card: CategoryCard; partnerCount: number }) {
  return (
    <article
      className={cn(
        "card group relative flex flex-col p-7 transition-[border-color,transform] duration-200 focus-within:border-ring hover:-translate-y-1 hover:border-[#4a4a66]",
        !card.available && "bg-none bg-white/[0.02]",
      )}
    >
      <IconTile icon={icons[card.icon]} available={card.available} gradient="bg-[linear-gradient(135deg,#ff8a5c,#e23a7a)] text-[#12060a]" className="mb-6" />
      <h2 className="text-2xl font-bold tracking-tight">
        <Link
          to={card.link}
          className="after:absolute after:inset-0 after:rounded-[1.25rem] after:content-[''] focus-visible:outline-none"
        >
          {card.title}
        </Link>
      </h2>
      <p className="mt-3 flex-1 leading-relaxed text-muted">{card.description}</p>
      <div className="mt-7 flex items-center justify-between gap-3">
        {card.available ? (
          <>
            <span aria-hidden="true" className="btn-primary min-h-10 py-2 text-sm">
              Learn More
              <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
            </span>
            <span className="text-sm text-muted">{partnerCount} partners</span>
          </>
        ) : (
          <Badge variant="soon" className="px-3 py-1 text-sm">
            Coming Soon
          </Badge>
        )}
      </div>
    </article>
  );
}
