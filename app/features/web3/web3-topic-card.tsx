import { ArrowRight } from "~/components/ui/icons/arrow-right";
import { Blocks } from "~/components/ui/icons/blocks";
import { Coins } from "~/components/ui/icons/coins";
import { Tags } from "~/components/ui/icons/tags";
import { Link } from "~/components/ui/link";
import type { Web3Topic } from "~/content/web3";
import { Badge } from "~/components/ui/badge";
import { IconTile } from "~/components/ui/icon-tile";
import { ExpandableText } from "~/components/ui/expandable-text";
import { cn } from "~/lib/cn";

const icons = { blocks: Blocks, coins: Coins, tags: Tags } as const;

/**
 * product-rules §2 "Web3 overview" cards. Available topics link to /web3/{id} with an explicit link
 * (the blockchain card holds its own "more..." control and HTML links, so the card cannot
 * be one big link). The unavailable topic shows only its "Coming Soon" badge (ADR 0033).
 */
export function Web3TopicCard({ topic }: { topic: Web3Topic }) {
  const comingSoon = topic.description === "Coming Soon";
  return (
    <article
      aria-labelledby={`web3-topic-${topic.id}`}
      className={cn("card flex flex-col p-7", !topic.available && "bg-none bg-white/[0.02]")}
    >
      <div className="mb-6 flex items-start justify-between gap-3">
        <IconTile icon={icons[topic.icon]} available={topic.available} gradient="bg-[linear-gradient(135deg,#8b5cf6,#e23a7a)] text-white" />
        {comingSoon && (
          <Badge variant="soon" className="px-3 py-1 text-sm">
            Coming Soon
          </Badge>
        )}
      </div>
      <h2 id={`web3-topic-${topic.id}`} className="text-2xl font-bold tracking-tight">
        {topic.title}
      </h2>
      <div className="mt-3 flex-1">
        {comingSoon ? (
          <p className="leading-relaxed text-muted">
            {topic.available
              ? `We are preparing our ${topic.title.toLowerCase()} programme for artists and filmmakers.`
              : "This initiative is not open yet."}
          </p>
        ) : (
          <ExpandableText html={topic.description} contentClassName="prose-html leading-relaxed text-muted" />
        )}
      </div>
      {topic.available && (
        <Link
          to={`/web3/${topic.id}`}
          className="mt-6 inline-flex items-center gap-1.5 self-start rounded-full font-semibold text-ring hover:underline hover:underline-offset-4"
        >
          Explore {topic.title}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      )}
    </article>
  );
}
