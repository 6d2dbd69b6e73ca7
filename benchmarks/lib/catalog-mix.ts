import { TOP_GENRES } from "../../app/lib/catalog/genre-tree.ts";

/** 40 filter and page views and 10 searches, the same for every run (bench:load, bench:analysis). */
export function catalogMix(): string[] {
  const views: string[] = [];
  for (const genre of TOP_GENRES) {
    for (const page of [1, 2]) views.push(`/catalog?genre=${encodeURIComponent(genre)}${page > 1 ? `&page=${page}` : ""}`);
  }
  views.push("/catalog", "/catalog?page=3", "/catalog?type=film", "/catalog?type=singles", "/catalog?type=singles&page=2");
  const searches = ["love", "night", "blue", "jazz", "sun", "dream", "city", "moon", "rain", "soul"].map((q) => `/catalog?q=${q}`);
  return [...views.slice(0, 40), ...searches];
}
