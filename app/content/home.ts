/**
 * Home page copy (product-rules §2 "Home", §9 "Home stats and editorial figures").
 * The founder's letter is trusted HTML written here; it is rendered with
 * dangerouslySetInnerHTML, so nothing from a request may ever flow into it.
 */
import { site } from "./site";

export interface LinkAction {
  label: string;
  href: string;
}

export interface HomeStat {
  label: string;
  /** Shown verbatim; product-rules §9 gives the values as display strings ("25,000+"). */
  value: string;
}

export const homeHero = {
  eyebrow: "Independent music, film & creator distribution",
  title: "Beat The Ordinary",
  /** product-rules §1: announces "Creative Tokenization for You", gives {email}, cites 30 years. */
  founderLetterHtml: `
<p>Dear artists, filmmakers and creators,</p>
<p>I have spent <strong>30 years in the music business</strong> — on tour buses, in mixing rooms and across the negotiating table — and I have watched too many brilliant people sign away what they made for a chance to be heard. ${site.companyName} exists so that you never have to make that trade.</p>
<p>Today we distribute music, film and video-platform content to stores and screens around the world at zero cost to you, with AI tools that handle the mixing, the artwork, the subtitles and the paperwork, so you can spend your time on the work only you can do.</p>
<p>Now we are taking the next step: <strong>Creative Tokenization for You</strong>. It is our initiative to let creators turn their catalogues into transparent, fractional assets — owned by you, shared with the fans and partners you choose, and paid out on terms you can read in one sitting.</p>
<p>If you want to be part of the first wave, or simply want to tell me what would make your creative life easier, write to me directly at <a href="mailto:${site.founderEmail}">${site.founderEmail}</a>. I read every message.</p>
<p>With gratitude,<br />${site.founderName}<br /><em>Founder, ${site.companyName}</em></p>
`.trim(),
  primaryAction: { label: "Browse Catalog", href: "/catalog" } satisfies LinkAction,
  secondaryAction: { label: "Join / Distribute Your Music", href: "/contact" } satisfies LinkAction,
};

/** product-rules §2 "Stats strip (static values)". */
export const homeStats: readonly HomeStat[] = [
  { label: "Albums in Catalog", value: "25,000+" },
  { label: "Hours of Music", value: "50,000+" },
  { label: "Countries Reached", value: "150+" },
];

export const homeEcosystem = {
  title: "Our AI-Powered Ecosystem for Creators & Innovators",
  text: "Discover how our integrated AI tools and global distribution simplify your creative journey and amplify your reach, completely free.",
  action: { label: "Explore All Platforms", href: "/ai-brands" } satisfies LinkAction,
};
