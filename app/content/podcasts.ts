/**
 * Podcast shows (product-rules §2 "Podcasts", §3 PodcastShow, §9: 3 shows).
 * Booking and playlist links are sample URLs; an operator replaces them here.
 */
export interface PodcastShow {
  /** Stable key, also the logo's file name. */
  slug: string;
  title: string;
  description: string;
  /** Where a guest books a recording slot (opens in a new tab). */
  bookingLink: string;
  /** The show's showcase playlist (opens in a new tab). */
  playlistLink: string;
  /** Image path under /assets/podcasts/. */
  logo: `/assets/podcasts/${string}`;
  /** The two hex colours of the card's gradient. */
  color1: `#${string}`;
  color2: `#${string}`;
}

export const podcastShows: PodcastShow[] = [
  {
    slug: "independent-frequency",
    title: "Independent Frequency",
    description:
      "Conversations with independent artists, producers and label founders about releasing music on their own terms: distribution, royalties, fan building and the creative choices behind the records.",
    bookingLink: "https://cal.example.com/northbeat/independent-frequency-guest",
    playlistLink: "https://video.example.com/playlist/independent-frequency",
    logo: "/assets/podcasts/independent-frequency.svg",
    color1: "#ff7a45",
    color2: "#e23a7a",
  },
  {
    slug: "final-cut-stories",
    title: "Final Cut Stories",
    description:
      "Independent filmmakers on getting a film from the edit suite to a worldwide audience: festivals, streaming deals, subtitles, trailers and the business of owning your catalogue.",
    bookingLink: "https://cal.example.com/northbeat/final-cut-stories-guest",
    playlistLink: "https://video.example.com/playlist/final-cut-stories",
    logo: "/assets/podcasts/final-cut-stories.svg",
    color1: "#3b82f6",
    color2: "#8b5cf6",
  },
  {
    slug: "creator-economy-live",
    title: "Creator Economy Live",
    description:
      "Video creators, channel owners and founders on monetization, rights management, AI tools and tokenization: what is working right now for people who build audiences for a living.",
    bookingLink: "https://cal.example.com/northbeat/creator-economy-live-guest",
    playlistLink: "https://video.example.com/playlist/creator-economy-live",
    logo: "/assets/podcasts/creator-economy-live.svg",
    color1: "#10b981",
    color2: "#0ea5e9",
  },
];

/** Editorial copy of the Podcasts page. */
export const podcastsPage = {
  title: "Podcasts",
  subtitle: "Three shows. One mission: amplify independent voices.",
  intro: [
    "We produce three podcast shows, one for each community we serve: independent musicians, independent filmmakers and video creators. Every episode is a real conversation with someone building a career outside the old gatekeepers.",
    "Guests book their own recording slot. Pick the show that fits your story and use the booking link under it; you choose the date, we send the prep notes and handle the rest.",
  ],
  cta: {
    title: "Ready to Share Your Story?",
    text: "Artists, filmmakers, creators and founders with something to teach are welcome. Tell our audience how you got here.",
    button: "Get Featured",
  },
  dialog: {
    title: "Choose Your Podcast",
    description: "Select which podcast show you'd like to be featured on",
  },
} as const;
