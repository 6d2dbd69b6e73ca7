/**
 * Investor brief (product-rules §2 "Investors", §3 "InvestorBriefSection", §9 "Home stats and
 * editorial figures"). Figures are the spec's own; change them here only.
 */
import { site } from "./site";
import type { StoryIconName } from "./story-icons";

export interface InvestorBriefSection {
  title: string;
  icon: StoryIconName;
  /** One bullet line each. */
  content: readonly string[];
}

export const investorsPage = {
  title: "Investors",
  briefTitle: "Investor Brief",
  briefSubtitle: "Shaping the Future of Music, Film, and Content Creation",
  join: {
    title: "Join the Future of Music",
    badge: "Invitation-Only",
    text: "Our investor program is by invitation. If you share our conviction that creators should own the future of entertainment, book a 30-minute introduction with our founder.",
    action: "Schedule a Meeting",
    /** product-rules §9 "Counts": meeting booking slot: 30 minutes. */
    meetingMinutes: 30,
  },
};

/** Headline figures shown above the brief cards (product-rules §9). */
export const investorKeyFigures: ReadonlyArray<{ value: string; label: string }> = [
  { value: "$29B", label: "Music industry today, projected to reach $100–200B+" },
  { value: "$150M–$250M", label: "Target raise" },
  { value: "$500K", label: "Minimum investment, “soon rising to $1M”" },
];

export const investorBriefSections: readonly InvestorBriefSection[] = [
  {
    title: "The Opportunity",
    icon: "trending-up",
    content: [
      "The global music industry is valued at $29B and is projected to reach $100–200B+ as streaming, sync, gaming and immersive media converge.",
      "Millions of independent artists and filmmakers still lack fair, affordable access to global distribution.",
      "AI and tokenization are rewriting how creative work is produced, owned and monetized — the infrastructure layer is still up for grabs.",
    ],
  },
  {
    title: "Our Vision",
    icon: "eye",
    content: [
      "One ecosystem for music, film and video-platform creators: distribution, AI tools and rights management under one roof.",
      "Zero-cost distribution that earns with the creator, not from the creator.",
      "Creative Tokenization for You: catalogues as transparent, fractional assets that creators control.",
    ],
  },
  {
    title: `Why ${site.companyName}`,
    icon: "target",
    content: [
      "Founder-led by 30 years in the music business, with a board spanning streaming, film, engineering and finance.",
      "Four live sister platforms: music distribution, film distribution, a certified content-management network and white-label distribution.",
      "Trust built on transparency: monthly royalty statements and weekly store notifications for every artist.",
      "A catalogue of over 25,000 tracks for sync licensing, reaching listeners in 150+ countries.",
    ],
  },
  {
    title: "Investment Strategy",
    icon: "coins",
    content: [
      "Target raise: $150M–$250M to scale AI tooling, catalogue acquisition and regional expansion.",
      "Minimum investment: $500K, soon rising to $1M.",
      "Capital allocated to product, strategic catalogue purchases and partnerships with labels and agencies.",
    ],
  },
  {
    title: "The Future",
    icon: "rocket",
    content: [
      "Immersive music experiences across gaming, live and interactive media.",
      "Tokenized royalties that let fans and partners share in the success of the work they love.",
      "A global stage where every independent creator can build a lasting, self-owned career.",
    ],
  },
];
