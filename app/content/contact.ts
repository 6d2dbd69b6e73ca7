/**
 * Copy and value → label tables of the /contact page (spec §2 "Contact", §8 "Success toasts",
 * §9 "Licensing enumerations", "Promised response times").
 *
 * No imports on purpose: the server's mail composer (app/.server/mail/compose.ts) reads the
 * enumeration labels too, and command-line tools load it with Node directly (ADR 0001).
 */

export interface ContactCard {
  title: string;
  /** Also the subject of the card's mail link (spec §2: "with the card's subtitle as the mail subject"). */
  subtitle: string;
  icon: "message-circle" | "music" | "users" | "handshake";
}

export interface EnumOption<V extends string = string> {
  value: V;
  label: string;
}

export const contactPage = {
  title: "Get In Touch",
  intro:
    "Questions about distribution, a track you want to license, a catalogue to pitch or a partnership to explore — tell us and the right person will answer.",
  metaDescription:
    "Contact Northbeat Media: general inquiries, sync licensing for film, TV and commercials, artist relations and partnerships.",
  tabs: { contact: "General Contact", licensing: "Sync Licensing" },
} as const;

export const contactCards: ContactCard[] = [
  { title: "Say Hello", subtitle: "General inquiries and support", icon: "message-circle" },
  { title: "Sync Licensing", subtitle: "Music licensing for film, TV & commercial", icon: "music" },
  { title: "Artist Relations", subtitle: "Artist submissions and catalogue", icon: "users" },
  // spec §2 does not show this subtitle; ours (reported as a deviation).
  { title: "Partnerships", subtitle: "Distribution, label and brand partnerships", icon: "handshake" },
];

export const contactForm = {
  title: "Send Us a Message",
  description: "We'll get back to you within 24 hours.",
  labels: { name: "Full Name", email: "Email Address", subject: "Subject", message: "Message" },
  placeholders: {
    name: "Your name",
    email: "you@example.com",
    subject: "What is this about?",
    message: "Tell us how we can help…",
  },
  submit: "Send Message",
  submitting: "Sending…",
  success: {
    title: "Message Sent!",
    description: "Thank you for contacting us. We'll get back to you within 24 hours.",
  },
} as const;

export const licensingForm = {
  title: "Sync Licensing Inquiry",
  description: "Our team will review your request and respond within 1-2 business days.",
  labels: {
    name: "Full Name",
    email: "Email Address",
    company: "Company/Production",
    projectType: "Project Type",
    budget: "Budget Range",
    timeline: "Timeline",
    description: "Project Description",
    tracks: "Specific Tracks (Optional)",
  },
  placeholders: {
    name: "Your name",
    email: "you@example.com",
    company: "Studio, agency or production",
    description: "Tell us about the project: scenes, usage, territories, media…",
    tracks: "Track titles or catalogue links",
  },
  selectPrompts: {
    projectType: "Select project type",
    budget: "Select budget range",
    timeline: "Select timeline",
  },
  submit: "Submit Licensing Request",
  submitting: "Submitting…",
  success: {
    title: "Licensing Inquiry Received!",
    description: "Our team will review your request and respond within 1-2 business days.",
  },
} as const;

/** Shown when the lead could not even be stored (DESIGN.md §3, deviation 2). */
export const storeFailure = {
  title: "Your message could not be sent",
  /** {email} is replaced by the contact mailbox. */
  description: "Something went wrong on our side. Please try again, or write to us at {email}.",
} as const;

export const rateLimited = {
  title: "Too many submissions",
  /** {minutes} is replaced by the wait time. */
  description: "You have sent several messages in a short time. Please try again in {minutes} minutes, or write to us at {email}.",
} as const;

// spec §9 "Licensing enumerations (value → label)"
export const projectTypes = [
  { value: "film", label: "Film" },
  { value: "tv", label: "TV Show" },
  { value: "commercial", label: "Commercial/Ad" },
  { value: "documentary", label: "Documentary" },
  { value: "podcast", label: "Podcast" },
  { value: "game", label: "Video Game" },
  { value: "corporate", label: "Corporate Video" },
  { value: "other", label: "Other" },
] as const satisfies readonly EnumOption[];

export const budgets = [
  { value: "under-500", label: "Under $500" },
  { value: "500-1000", label: "$500 - $1,000" },
  { value: "1000-5000", label: "$1,000 - $5,000" },
  { value: "5000-10000", label: "$5,000 - $10,000" },
  { value: "10000-plus", label: "$10,000+" },
  { value: "tbd", label: "To be discussed" },
] as const satisfies readonly EnumOption[];

export const timelines = [
  { value: "rush", label: "Rush (24-48 hours)" },
  { value: "1-week", label: "Within 1 week" },
  { value: "2-weeks", label: "Within 2 weeks" },
  { value: "1-month", label: "Within 1 month" },
  { value: "flexible", label: "Flexible" },
] as const satisfies readonly EnumOption[];

export type ProjectType = (typeof projectTypes)[number]["value"];
export type Budget = (typeof budgets)[number]["value"];
export type Timeline = (typeof timelines)[number]["value"];

/** The label of an enumeration value; the raw value when it is unknown. */
export function labelOf(options: readonly EnumOption[], value: string): string {
  return options.find((o) => o.value === value)?.label ?? value;
}
