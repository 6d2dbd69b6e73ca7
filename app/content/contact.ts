/**
 * Copy and value → label tables of the /contact page (product-rules §2 "Contact", §8 "Success toasts",
 * §9 "Licensing enumerations", "Promised response times").
 *
 * No imports on purpose: the server's mail composer (app/.server/mail/compose.ts) reads the
 * enumeration labels too, and command-line tools load it with Node directly (ADR 0001).
 */

export interface ContactCard {
  title: string;
  /** Also the subject of the card's mail link (product-rules §2: "with the card's subtitle as the mail subject"). */
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
  // product-rules §2 does not show this subtitle; ours (reported as a deviation).
  { title: "Partnerships", subtitle: "Distribution, label and brand partnerships", icon: "handshake" },
];

export const contactForm = {
  title: "Send Us a Message",
  description: "We'll get back to you within 24 hours.",
  submit: "Send Message",
  submitting: "Sending…",
  success: {
    title: "Message Sent!",
    description: "Thank you for contacting us. We'll get back to you within 24 hours.",
  },
  // Issue #41: the lasting confirmation that replaces the form after a send.
  sent: { another: "Send another message" },
  // product-rules §9 "Promised response times": the receipt e-mail repeats it (issue #11).
  responseTime: "24 hours",
} as const;

export const licensingForm = {
  title: "Sync Licensing Inquiry",
  description: "Our team will review your request and respond within 1-2 business days.",
  submit: "Submit Licensing Request",
  submitting: "Submitting…",
  success: {
    title: "Licensing Inquiry Received!",
    description: "Our team will review your request and respond within 1-2 business days.",
  },
  sent: { another: "Send another request" },
  /**
   * Issue #41: a "License this …" link lands on the form with Specific Tracks filled in; this
   * box at the top of the form names what the request is about, in view on arrival.
   */
  about: { label: "Your request is about", note: "It is filled in under Specific Tracks (Optional); change it there if you like." },
  responseTime: "1-2 business days",
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

// product-rules §9 "Licensing enumerations (value → label)"
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

// Issue #11: the terms that price a sync license. Optional; not in the spec (docs/spec-deviations.md).
export const media = [
  { value: "online", label: "Online & social" },
  { value: "broadcast-tv", label: "Broadcast TV" },
  { value: "cinema", label: "Cinema & festivals" },
  { value: "streaming", label: "Streaming / VOD" },
  { value: "radio-podcast", label: "Radio & podcast" },
  { value: "in-store", label: "In-store & venues" },
  { value: "games-apps", label: "Games & apps" },
  { value: "all", label: "All media" },
] as const satisfies readonly EnumOption[];

export const territories = [
  { value: "worldwide", label: "Worldwide" },
  { value: "north-america", label: "North America" },
  { value: "latin-america", label: "Latin America" },
  { value: "europe", label: "Europe" },
  { value: "asia-pacific", label: "Asia-Pacific" },
  { value: "africa-middle-east", label: "Africa & Middle East" },
  { value: "other", label: "Other" },
] as const satisfies readonly EnumOption[];

export const terms = [
  { value: "1-year", label: "1 year" },
  { value: "2-years", label: "2 years" },
  { value: "5-years", label: "5 years" },
  { value: "perpetuity", label: "In perpetuity" },
] as const satisfies readonly EnumOption[];

export type ProjectType = (typeof projectTypes)[number]["value"];
export type Budget = (typeof budgets)[number]["value"];
export type Timeline = (typeof timelines)[number]["value"];
export type Medium = (typeof media)[number]["value"];
export type Territory = (typeof territories)[number]["value"];
export type Term = (typeof terms)[number]["value"];

/** The label of an enumeration value; the raw value when it is unknown. */
export function labelOf(options: readonly EnumOption[], value: string): string {
  return options.find((o) => o.value === value)?.label ?? value;
}

/** One field of a lead form: what the page renders, in the order it renders them. */
export interface LeadFieldSpec<N extends string = string> {
  name: N;
  label: string;
  control: "text" | "email" | "textarea" | "select" | "checkboxes";
  /** Required fields are marked by the form (`required`); the optional ones say so in their label. */
  required: boolean;
  placeholder?: string;
  autoComplete?: string;
  rows?: number;
  /** select and checkboxes: the value → label table */
  options?: readonly EnumOption[];
  /** select: the empty first option */
  prompt?: string;
}

/**
 * Both forms' fields, defined once (issue #11) and rendered by app/features/contact/lead-forms.tsx.
 * Each inner list is one row: its fields sit side by side from the sm breakpoint. Labels and
 * prompts are product-rules §2; the order of the spec's fields is kept.
 */
export const contactFields = [
  [
    { name: "name", label: "Full Name", control: "text", required: true, placeholder: "Your name", autoComplete: "name" },
    { name: "email", label: "Email Address", control: "email", required: true, placeholder: "you@example.com", autoComplete: "email" },
  ],
  [{ name: "subject", label: "Subject", control: "text", required: true, placeholder: "What is this about?" }],
  [{ name: "message", label: "Message", control: "textarea", required: true, rows: 6, placeholder: "Tell us how we can help…" }],
] as const satisfies readonly (readonly LeadFieldSpec[])[];

export const licensingFields = [
  [
    { name: "name", label: "Full Name", control: "text", required: true, placeholder: "Your name", autoComplete: "name" },
    { name: "email", label: "Email Address", control: "email", required: true, placeholder: "you@example.com", autoComplete: "email" },
  ],
  [
    {
      name: "company",
      label: "Company/Production",
      control: "text",
      required: true,
      placeholder: "Studio, agency or production",
      autoComplete: "organization",
    },
  ],
  [
    { name: "projectType", label: "Project Type", control: "select", required: true, options: projectTypes, prompt: "Select project type" },
    { name: "budget", label: "Budget Range", control: "select", required: true, options: budgets, prompt: "Select budget range" },
    { name: "timeline", label: "Timeline", control: "select", required: true, options: timelines, prompt: "Select timeline" },
  ],
  [
    {
      name: "description",
      label: "Project Description",
      control: "textarea",
      required: true,
      rows: 5,
      placeholder: "Tell us about the project: scenes, usage, territories, media…",
    },
  ],
  [
    {
      name: "tracks",
      label: "Specific Tracks (Optional)",
      control: "textarea",
      required: false,
      rows: 2,
      placeholder: "Track titles or catalogue links",
    },
  ],
  // Issue #11: the license terms, after the spec's fields.
  [{ name: "media", label: "Media (Optional)", control: "checkboxes", required: false, options: media }],
  [
    { name: "territory", label: "Territory (Optional)", control: "select", required: false, options: territories, prompt: "Select territory" },
    { name: "term", label: "Term (Optional)", control: "select", required: false, options: terms, prompt: "Select term" },
  ],
] as const satisfies readonly (readonly LeadFieldSpec[])[];

/**
 * The receipt e-mail to the visitor (issue #11, ADR 0095). Fixed words only: it never carries
 * anything the visitor typed, so the form cannot send chosen words to a chosen address.
 * {company}, {reference}, {responseTime}, {email}, {site}, {retentionDays} and {dataEmail} are filled
 * in by the server.
 */
export const leadReceipt = {
  /** Reference numbers: this prefix and the lead's number (also shown in the success toast). */
  referencePrefix: "NB",
  subject: { contact: "We received your message ({reference})", licensing: "We received your licensing inquiry ({reference})" },
  body: {
    contact: "Thank you for contacting {company}. We received your message and will get back to you within {responseTime}.",
    licensing: "Thank you for your licensing inquiry to {company}. Our team will review it and respond within {responseTime}.",
  },
  reference: "Your reference: {reference}",
  followUp: "To add anything, write to {email} and quote your reference.",
  /**
   * Issue #16: how long the message is kept (LEAD_RETENTION_DAYS) and how to ask for a copy or
   * an erasure ({dataEmail} is site.legal.dataRequestsEmail). `retentionUnknown` is the line
   * for a caller that does not pass the retention days.
   */
  retention: "We keep your message for {retentionDays} days after it reaches us, then erase your details.",
  retentionUnknown: "We keep your message only as long as our privacy policy says, then erase your details.",
  rights: "To get a copy of the data we hold about you, or to have it erased sooner, write to {dataEmail} and quote {reference}. Our privacy policy: {site}/privacy",
  notYou:
    "You receive this e-mail because this address was entered in a form on {site}. If that was not you, you can ignore it: we send at most one such e-mail to an address per hour.",
  /** Shown under the success toast and in the confirmation that replaces the form after a send. */
  shownReference: "Your reference: {reference}",
  /** Under the reference in that confirmation; {email} is the contact mailbox. */
  quoteReference: "Quote it if you write to us at {email}.",
} as const;
