/** The Board (product-rules §2 "The Board", §3 "Board member"; §9: 6 members). */
import { site } from "./site";

export interface BoardMember {
  name: string;
  role: string;
  bio: string;
  /** Portrait under /assets/board/ (square SVG). */
  image: string;
  skills: readonly string[];
  /**
   * Profile links. "#" means "no public profile": product-rules §2 disables the
   * professional-network link for that value.
   */
  social: { linkedin: string; twitter: string; email: string };
}

/** The sentinel the spec uses for a member without a public profile. */
export const NO_PROFILE = "#";

export const boardPage = {
  title: "The Board",
  subtitle:
    "Operators, artists and technologists who hold us to our promise: independent creators first, always.",
};

export const boardMembers: readonly BoardMember[] = [
  {
    name: site.founderName,
    role: "Founder & Chairman",
    bio: "Thirty years in the music business as a touring musician, producer and label executive. Marcus founded Northbeat to give independent artists the distribution and rights tools he once had to fight for.",
    image: "/assets/board/marcus-ellery.svg",
    skills: ["Music Publishing", "Artist Development", "Label Strategy"],
    social: { linkedin: "https://www.linkedin.com/in/example-marcus-ellery", twitter: "https://x.com/example_marcus", email: "marcus@example.com" },
  },
  {
    name: "Amara Okafor",
    role: "Chief Executive Officer",
    bio: "Former head of global partnerships at a streaming service, Amara has negotiated distribution deals in more than forty markets and leads Northbeat's expansion across Africa and Latin America.",
    image: "/assets/board/amara-okafor.svg",
    skills: ["Global Partnerships", "Streaming Economics", "Operations"],
    social: { linkedin: "https://www.linkedin.com/in/example-amara-okafor", twitter: "https://x.com/example_amara", email: "amara@example.com" },
  },
  {
    name: "Daniel Reyes",
    role: "Chief Technology Officer",
    bio: "Daniel built audio-fingerprinting and metadata pipelines that process millions of tracks a day. He leads the engineering behind our AI mastering, subtitle generation and content-identification services.",
    image: "/assets/board/daniel-reyes.svg",
    skills: ["Machine Learning", "Audio Engineering", "Cloud Infrastructure"],
    social: { linkedin: "https://www.linkedin.com/in/example-daniel-reyes", twitter: "https://x.com/example_daniel", email: "daniel@example.com" },
  },
  {
    name: "Sofia Lindqvist",
    role: "Director, Film & Video",
    bio: "An award-winning documentary producer, Sofia has taken independent films from festival premiere to worldwide streaming. She oversees our film distribution and video-platform network.",
    image: "/assets/board/sofia-lindqvist.svg",
    skills: ["Film Distribution", "Festival Strategy", "Content Licensing"],
    social: { linkedin: NO_PROFILE, twitter: "https://x.com/example_sofia", email: "sofia@example.com" },
  },
  {
    name: "Kenji Watanabe",
    role: "Director, Web3 & Tokenization",
    bio: "Kenji advises cultural institutions on digital-asset regulation and designed the royalty-sharing model behind Creative Tokenization for You.",
    image: "/assets/board/kenji-watanabe.svg",
    skills: ["Blockchain", "Digital Assets", "Regulatory Compliance"],
    social: { linkedin: "https://www.linkedin.com/in/example-kenji-watanabe", twitter: NO_PROFILE, email: "kenji@example.com" },
  },
  {
    name: "Grace Mensah-Hart",
    role: "Independent Director, Finance",
    bio: "A chartered accountant and former media-fund CFO, Grace chairs the audit committee and keeps our royalty accounting as transparent as our promise.",
    image: "/assets/board/grace-mensah-hart.svg",
    skills: ["Corporate Finance", "Royalty Accounting", "Governance"],
    social: { linkedin: NO_PROFILE, twitter: NO_PROFILE, email: "grace@example.com" },
  },
];

/** True when the member has a real professional-network profile to link to. */
export function hasProfileLink(href: string): boolean {
  return href.trim() !== "" && href !== NO_PROFILE;
}
