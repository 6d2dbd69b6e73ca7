/** One well-formed, numbered album entry of merged.json (spec §3 "Album"), with one track. */
export const albumEntry = (i: number) => ({
  name: `Album ${i}`,
  artist: `Artist ${i}`,
  genre: "Jazz",
  artwork: `cover-${i}.webp`,
  keywords: ["jazz"],
  featured: false,
  tracks: [{ s3Path: `track-${i}.wav`, Filename: `Track ${i}` }],
});
