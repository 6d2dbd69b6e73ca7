/** Innovation page copy (product-rules §2 "Innovation"). The essay is the founder's. */
import { site } from "./site";
import type { StoryIconName } from "./story-icons";

export interface InnovationTile {
  title: string;
  description: string;
  icon: StoryIconName;
}

export interface EssaySection {
  heading: string;
  /** Plain-text paragraphs. */
  paragraphs: readonly string[];
}

export const innovationPage = {
  title: "Innovation",
  subtitle: "Where Technology Meets Creativity",
  essayTitle: "A letter on the future of creativity",
  callToAction: {
    heading: "Have an idea that could change how music is made?",
    lead: "We build with our community, not just for it.",
    ideasLabel: "Submit your ideas",
    ideasSubject: "Ideas",
    meetingLead: "or, if you would rather talk it through,",
    meetingLabel: "schedule a meeting.",
  },
};

export const innovationTiles: readonly InnovationTile[] = [
  {
    title: "Music Evolution",
    description: "From AI-assisted mastering to spatial audio, we give independent artists the studio tools that used to belong to major labels.",
    icon: "music",
  },
  {
    title: "Community Driven",
    description: "Our roadmap is shaped by the artists, filmmakers and fans who use it. The best ideas arrive in our inbox.",
    icon: "users",
  },
  {
    title: "Gaming Integration",
    description: "Soundtracks, in-game concerts and licensed catalogues that carry music into the worlds where a new generation listens.",
    icon: "gamepad",
  },
  {
    title: "Future Growth",
    description: "Creative tokenization, new markets and new formats — built so creators share in the value they create.",
    icon: "trending-up",
  },
];

export const founderQuote = {
  text: "Technology has never been the enemy of music. Every new instrument, every new format, started as a threat and ended up as a stage. AI is simply the next stage — and this time, artists should own it.",
  author: site.founderName,
  role: `Founder, ${site.companyName}`,
};

export const innovationEssay: readonly EssaySection[] = [
  {
    heading: "The New Era of Participation",
    paragraphs: [
      "For most of the last century, the music business was a gate with very few keys. A handful of companies decided what was recorded, what was pressed and what reached the radio. Listeners could only choose among what they were offered.",
      "That era is over. Today a song recorded in a bedroom can reach 150 countries by Friday, and a fan can become a collaborator, a promoter or even a co-owner of the work they love. Participation — not access — is the new currency.",
      "Our job is to make that participation fair: to give every creator the same tools, the same reach and the same clear accounting, whether they have ten listeners or ten million.",
    ],
  },
  {
    heading: "AI: Partner, Not Threat",
    paragraphs: [
      "I have heard the fear in studios and on stages: that machines will write the songs and cut the artist out. I understand it. But after 30 years in this business, I have seen the same fear greet the synthesizer, the sampler and the stream.",
      "Used well, AI is the assistant every independent artist could never afford — an engineer at 3 a.m., a designer for the cover, a translator for the subtitles, an analyst for the royalty report. It handles the work around the art, so the human can make the art.",
      "That is the line we hold: our AI serves the creator, is transparent about what it does, and never trains on anyone's catalogue without consent.",
    ],
  },
];
