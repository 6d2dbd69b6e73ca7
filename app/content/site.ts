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
  /** Footer tagline (product-rules §2 "Footer"). */
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
  /**
   * Issue #16: the facts the privacy policy (/privacy), the terms of use (/terms), the notice
   * under each form and the receipt e-mail name. Every value here is sample data: an operator
   * sets each one before the site goes live (the copy around them is in app/content/privacy.ts
   * and terms.ts).
   */
  legal: {
    /** The company's full legal name: the controller of the visitors' data (GDPR Art. 4(7)). */
    legalName: "Northbeat Media LLC",
    /** The postal address the privacy policy and the terms give, on one line. */
    postalAddress: "100 Example Street, Suite 400, Nashville, TN 37203, United States",
    /** Where a visitor asks for a copy, a correction or the erasure of their data. */
    dataRequestsEmail: "privacy@example.com",
    /**
     * The company that delivers the forms' e-mails for us (a processor, GDPR Art. 28): the
     * provider behind MAIL_TRANSPORT (Amazon SES in the spec, or the SMTP provider), where it
     * processes the data, and what makes a transfer outside the EEA and the UK lawful.
     */
    mailProvider: {
      name: "Amazon Web Services (Amazon SES)",
      location: "the United States",
      safeguard: "the European Commission's standard contractual clauses (and the UK addendum to them)",
    },
    /** Where the site and its database run (a processor too). */
    hostingProvider: { name: "Example Hosting Inc.", location: "the European Union" },
    /** The supervisory authority a visitor may complain to (GDPR Art. 77). */
    supervisoryAuthority: { name: "the Data Protection Commission (Ireland)", url: "https://www.dataprotection.ie/" },
    /** How long the hosting keeps the server's logs (which hold no personal data, issue #16). */
    serverLogDays: 30,
    /** How long the team's mailbox keeps a conversation once a request is settled. */
    mailboxRetention: "at most two years after our last exchange, unless it led to a contract, whose records we keep as the law requires",
    /** The law that governs the terms of use, and the courts for disputes. */
    governingLaw: "the laws of the State of Tennessee, United States",
    courts: "the state and federal courts located in Davidson County, Tennessee",
  },
  social: [
    { name: "LinkedIn", icon: "linkedin", href: "https://www.linkedin.com/company/example" },
    { name: "X (Twitter)", icon: "twitter", href: "https://x.com/example" },
    { name: "Instagram", icon: "instagram", href: "https://www.instagram.com/example" },
    { name: "Facebook", icon: "facebook", href: "https://www.facebook.com/example" },
  ] satisfies SocialLink[],
} as const;

export type Site = typeof site;
