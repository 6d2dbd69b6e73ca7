/** Mission & Vision page copy (product-rules §2 "Mission & Vision"). */
import type { StoryIconName } from "./story-icons";

export interface ValueCard {
  title: string;
  body: string;
  icon: StoryIconName;
}

export const missionPage = {
  title: "Our Mission & Vision",
  intro:
    "We believe the people who make music and film should own their future. Everything we build starts from that belief.",
  missionHeading: "What Drives Us",
  visionHeading: "Where We're Heading",
  principlesHeading: "Our Guiding Principles",
};

export const missionCards: readonly ValueCard[] = [
  {
    title: "Empowering Human Creativity",
    body: "Technology should amplify the artist, never replace them. Our tools take care of the repetitive work — mastering, metadata, delivery — so creators keep their time and their voice for the art itself.",
    icon: "sparkles",
  },
  {
    title: "Pioneering Responsible Innovation",
    body: "We adopt AI and blockchain where they make creators measurably better off, and we say plainly what each tool does with your work. No black boxes, no training on your catalogue without consent.",
    icon: "lightbulb",
  },
  {
    title: "Building an Honest Ecosystem",
    body: "Monthly royalty statements, weekly store reports and zero hidden fees. Artists should be able to follow every cent from the listener to their own account.",
    icon: "heart-handshake",
  },
];

export const visionCards: readonly ValueCard[] = [
  {
    title: "Music as an Immersive Experience",
    body: "Releases that live beyond the stream: interactive listening, visual albums, game worlds and fan experiences that make a song something you step into.",
    icon: "headphones",
  },
  {
    title: "A Global Stage for Every Artist",
    body: "An artist in Accra, Medellín or Ulaanbaatar deserves the same reach as one in Los Angeles. We distribute to more than 150 countries so that talent, not geography, decides who is heard.",
    icon: "globe",
  },
  {
    title: "Fearless Innovation & Growth",
    body: "We experiment early, learn in public and ship what works — from AI-assisted production to creative tokenization — so independent creators are first in line for what comes next.",
    icon: "rocket",
  },
];

export const guidingPrinciples: readonly ValueCard[] = [
  {
    title: "Artist-Centric",
    body: "Every decision is weighed against one question: does this leave the creator better off? You keep your rights and your masters.",
    icon: "users",
  },
  {
    title: "Innovation & Adaptability",
    body: "The industry changes monthly. We adapt our tools just as fast, so our artists never have to start over.",
    icon: "compass",
  },
  {
    title: "Transparency & Integrity",
    body: "Clear terms, readable statements and honest answers, even when the answer is \u201Cnot yet\u201D.",
    icon: "eye",
  },
  {
    title: "Empowerment & Education",
    body: "We share what we know — about rights, royalties and marketing — so creators can make confident decisions about their own careers.",
    icon: "book-open",
  },
];
