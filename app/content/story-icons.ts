/**
 * Icon names that the company-story content (home, mission, innovation, platforms,
 * investors) may reference. Content stays plain data (no React
 * imports); `StoryIcon` (app/features/story) maps each name to a lucide component, so an unknown name is a
 * type error instead of a blank square.
 */
export const STORY_ICON_NAMES = [
  "music",
  "film",
  "shield-check",
  "layers",
  "sparkles",
  "users",
  "gamepad",
  "trending-up",
  "brain",
  "globe",
  "heart-handshake",
  "eye",
  "compass",
  "lightbulb",
  "book-open",
  "rocket",
  "target",
  "coins",
  "chart",
  "layout-dashboard",
  "network",
  "headphones",
  "wand",
  "badge-dollar",
  "tv",
  "tag",
  "lock",
  "handshake",
] as const;

export type StoryIconName = (typeof STORY_ICON_NAMES)[number];
