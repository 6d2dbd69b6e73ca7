/**
 * The four sister platforms (product-rules §1, §2 "AI-Powered Platforms", §3 "Platform").
 * Feature titles are verbatim from product-rules §2. Statements are trusted HTML written here.
 */
import type { StoryIconName } from "./story-icons";

export interface PlatformFeature {
  title: string;
  description: string;
}

export interface Platform {
  id: "music" | "film" | "cms" | "white-label";
  name: string;
  /** One-line summary for the home page's ecosystem cards. */
  tagline: string;
  /** Wordmark under /assets/platforms/. */
  logo: string;
  icon: StoryIconName;
  /** Trusted HTML (rendered with dangerouslySetInnerHTML). */
  statement: string;
  /** Accent colour of the platform block (hex). */
  color: string;
  features: readonly PlatformFeature[];
  website: string;
}

export const platformsPage = {
  eyebrow: "AI-Powered Platforms",
  title: "AI-Powered Platforms",
  subtitle:
    "Four sister platforms, one promise: professional-grade distribution and AI tools for independent creators, at zero cost.",
  visitPrefix: "Visit ",
};

export const platforms: readonly Platform[] = [
  {
    id: "music",
    name: "Northbeat Music",
    tagline: "Free AI-driven DIY music distribution to every major store.",
    logo: "/assets/platforms/northbeat-music.svg",
    icon: "music",
    color: "#ff7a45",
    website: "https://music.example.com",
    statement:
      "<p><strong>Free, AI-driven DIY music distribution.</strong> Release to every major store worldwide, keep 100% of your rights, and let our AI handle mixing, mastering, artwork and marketing. You get weekly notifications of the stores that carry your music and a monthly royalty statement you can actually read.</p>",
    features: [
      { title: "Free Global Distribution", description: "Deliver singles, EPs and albums to the world's stores and streaming services with no upfront or yearly fees." },
      { title: "AI-Powered Production Tools", description: "AI mixing, mastering, artwork and marketing assistants that turn a demo into a release-ready record." },
      { title: "Transparent Royalty Management", description: "Monthly royalty statements, weekly store notifications, analytics and promo links in one place." },
      { title: "Automated Promotional Campaigns", description: "Every release gets a free AI promotional campaign on launch day, tuned to your genre and audience." },
      { title: "Metadata Integrity & Protection", description: "Validated credits and identifiers, automatic registration with performing-rights and mechanical rights societies, and copyright registration for US artists." },
      { title: "Comprehensive Artist Ecosystem", description: "An artist website, smart links and fan tools that grow with your career." },
    ],
  },
  {
    id: "film",
    name: "Northbeat Films",
    tagline: "AI-powered distribution, subtitles and trailers for independent film.",
    logo: "/assets/platforms/northbeat-films.svg",
    icon: "film",
    color: "#e23a7a",
    website: "https://films.example.com",
    statement:
      "<p><strong>AI-powered film distribution for independent filmmakers.</strong> Upload once: our AI checks your deliverables, flags missing captions, subtitles and formatting errors, generates English subtitles and trailers, and submits your film to our partner platforms — with real-time royalty statements and instant payouts.</p>",
    features: [
      { title: "AI-Powered Deliverables Assistance", description: "Automatic quality control reports missing captions or subtitles and formatting errors before a partner ever sees them." },
      { title: "Automated Subtitle & Trailer Generation", description: "English subtitles for non-English films and AI-assisted trailer cuts, ready in hours instead of weeks." },
      { title: "Global Distribution Network", description: "Submission to streaming, transactional and broadcast partners around the world." },
      { title: "Real-time Financial Transparency (payouts through online payment providers)", description: "Real-time royalty statements and instant payout through your preferred online payment provider." },
      { title: "Free Integrated Promotion", description: "Connect your film to your social media and launch campaigns without extra cost." },
      { title: "Performance Analytics", description: "Views, revenue and audience insights per territory and platform, with shareable links." },
    ],
  },
  {
    id: "cms",
    name: "Northbeat CMS Network",
    tagline: "A certified content-management network for monetized channels.",
    logo: "/assets/platforms/northbeat-cms-network.svg",
    icon: "shield-check",
    color: "#8b5cf6",
    website: "https://cms.example.com",
    statement:
      "<p><strong>A certified content-management network for video-platform creators.</strong> Your uploads get automated content-identification protection, access to higher ad rates and payments passed straight through to you. Membership is open to channels that are already monetized and publish original content.</p>",
    features: [
      { title: "Automated Content ID Protection", description: "Every upload is fingerprinted so re-uploads of your work are found and claimed automatically." },
      { title: "Higher Ad Revenue Potential", description: "Network-level advertiser relationships open premium ad rates to member channels." },
      { title: "Secure Channel Growth", description: "Copyright support and channel-safety guidance so growth never puts your channel at risk." },
      { title: "Full Creator Control", description: "You keep ownership of your channel, your content and your creative decisions." },
      { title: "Transparent & Timely Payments", description: "Earnings are passed through on a fixed schedule with itemised statements." },
      { title: "Exclusive to Original Content", description: "Open only to monetized channels with original content, which keeps the network trusted by advertisers." },
    ],
  },
  {
    id: "white-label",
    name: "Northbeat White Label",
    tagline: "Your own music and film distribution platform, under your brand.",
    logo: "/assets/platforms/northbeat-white-label.svg",
    icon: "layers",
    color: "#22c3a6",
    website: "https://whitelabel.example.com",
    statement:
      "<p><strong>Your own distribution platform, under your brand and domain.</strong> Labels and agencies run music and film distribution as their own service: you control earnings, statements and analytics, while your artists and filmmakers create their own accounts, upload and track their releases.</p>",
    features: [
      { title: "Fully Branded Platform", description: "Your logo, your colours and your domain, for music and for film." },
      { title: "AI-Driven & Automated", description: "The same AI production, quality-control and delivery engine that powers our own platforms." },
      { title: "Zero Upfront Cost", description: "Launch without setup fees or licence payments." },
      { title: "Complete Control & Transparency", description: "Set your splits and manage earnings, statements and analytics for your whole roster." },
      { title: "Artist Self-Management", description: "Artists and filmmakers create their own accounts, upload releases and follow their results." },
      { title: "Global Distribution & Reach", description: "Every release reaches the same worldwide store and partner network as ours." },
    ],
  },
];

/** product-rules §2: final "Seamless Integration" section. */
export const seamlessIntegration = {
  title: "Seamless Integration",
  subtitle: "The four platforms share one account, one set of numbers and one AI engine.",
  cards: [
    { title: "Unified Dashboard", description: "Manage music, film and channel releases from a single sign-in and a single overview.", icon: "layout-dashboard" },
    { title: "Shared Analytics", description: "See streams, views and earnings across every platform side by side, in one currency.", icon: "chart" },
    { title: "AI Synergy", description: "What our AI learns from a release on one platform improves the tools on all the others.", icon: "brain" },
  ] satisfies ReadonlyArray<{ title: string; description: string; icon: StoryIconName }>,
};
