import { SOUND_SEARCH_PATH } from "~/lib/static-pages";
import { site } from "./site";

/** product-rules §3 "Navigation item". */
export interface NavigationItem {
  name: string;
  href: string;
}

/** product-rules §2 "Navigation menu": the ten items, in this order. */
export const mainNavigation: readonly NavigationItem[] = [
  { name: "Home", href: "/" },
  { name: "Catalog", href: "/catalog" },
  { name: "Mission & Vision", href: "/mission" },
  { name: "Board", href: "/board" },
  { name: "Innovation", href: "/innovation" },
  { name: "AI Brands", href: "/ai-brands" },
  { name: "Investors", href: "/investors" },
  { name: "Podcasts", href: "/podcasts" },
  { name: "Partners", href: "/partners" },
  { name: "Web3", href: "/web3" },
];

/**
 * Issue #41 "Find by sound, everywhere a buyer searches": the search by a file of one's own
 * (/catalog/sounds-like, DESIGN.md §3c), offered beside the ten items of the menu (which keep the
 * spec's list and order), beside the catalog's search and on item pages.
 */
export const soundSearch = {
  href: SOUND_SEARCH_PATH,
  /** the short name, on buttons */
  name: "Find by sound",
  /** what it does, where there is room */
  description: "Upload a temp track or a demo and find catalog tracks that sound like it.",
} as const;

export interface FooterColumn {
  title: string;
  links: readonly NavigationItem[];
}

/**
 * product-rules §2 "Footer". "For Creators" points to /ai-brands instead of the spec's /aibrands
 * (DESIGN.md §3, deviation 3; /aibrands itself answers 301 → /ai-brands).
 * "Our Team" points to /board, the page of the people who lead the company (DESIGN.md §3,
 * deviation 3, issue #41); /team itself answers 301 → /board.
 */
export const footerColumns: readonly FooterColumn[] = [
  {
    title: "For Creators",
    links: [
      { name: "Music Distribution", href: "/ai-brands" },
      { name: "Film Distribution", href: "/ai-brands" },
      { name: "YouTube CMS Network", href: "/ai-brands" },
      { name: "White Labels", href: "/ai-brands" },
    ],
  },
  {
    title: "Our Company",
    links: [
      { name: "About Us", href: "/mission" },
      { name: "Our Team", href: "/board" },
      { name: "AI Brands", href: "/ai-brands" },
      { name: "Contact", href: "/contact" },
      { name: "Investors", href: "/investors" },
      { name: "Podcasts", href: "/podcasts" },
    ],
  },
  {
    title: "Contact Us",
    // product-rules §2: both are mail links to the same address, {email}.
    links: [
      { name: "Help Center", href: `mailto:${site.contactEmail}` },
      { name: "Technical Support", href: `mailto:${site.contactEmail}` },
    ],
  },
];

/**
 * product-rules §2 footer bottom row. /privacy and /terms are pages since issue #16 (deviation 3); issue
 * #11 adds the accessibility statement.
 */
export const legalLinks: readonly NavigationItem[] = [
  { name: "Privacy Policy", href: "/privacy" },
  { name: "Terms of Service", href: "/terms" },
  { name: "Accessibility", href: "/accessibility" },
];
