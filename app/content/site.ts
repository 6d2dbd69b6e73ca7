/**
 * The company's own facts, in one place. An operator replaces this sample content
 * (names, addresses, links) without touching any component.
 */
export interface SocialLink {
  name: string;
  /** lucide icon name, resolved by the footer */
  icon: "linkedin" | "twitter" | "instagram" | "facebook";
  href: string;
}

export const site = {
  companyName: "Northbeat Media",
  /** Footer tagline (spec §2 "Footer"). */
  tagline:
    "Empowering indie artists with tools for protection, growth, and monetization in the digital age.",
  /** The single general contact mailbox ({email} in the spec). */
  contactEmail: "hello@example.com",
  /** Founder's address used in the hero letter and the Innovation page. */
  founderEmail: "founder@example.com",
  founderName: "Marcus Ellery",
  /** 30-minute meeting booking link (Investors "Schedule a Meeting", Innovation). */
  meetingUrl: "https://cal.example.com/northbeat/30min",
  /** Sample postal address, shown in the Organization JSON-LD. */
  address: {
    streetAddress: "100 Example Street, Suite 400",
    addressLocality: "Nashville",
    addressRegion: "TN",
    postalCode: "37203",
    addressCountry: "US",
  },
  social: [
    { name: "LinkedIn", icon: "linkedin", href: "https://www.linkedin.com/company/example" },
    { name: "X (Twitter)", icon: "twitter", href: "https://x.com/example" },
    { name: "Instagram", icon: "instagram", href: "https://www.instagram.com/example" },
    { name: "Facebook", icon: "facebook", href: "https://www.facebook.com/example" },
  ] satisfies SocialLink[],
} as const;

export type Site = typeof site;
