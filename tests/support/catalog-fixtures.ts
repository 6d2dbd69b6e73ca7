/** One well-formed, numbered album entry of merged.json (product-rules §3 "Album"), with one track. */
export const albumEntry = (i: number) => ({
  name: `Album ${i}`,
  artist: `Artist ${i}`,
  genre: "Jazz",
  artwork: `cover-${i}.webp`,
  keywords: ["jazz"],
  featured: false,
  tracks: [{ s3Path: `track-${i}.wav`, Filename: `Track ${i}` }],
});

/** One submission of the music API's catalog list (product-rules §3 "Single", raw shape). */
export const submissionEntry = (id: string, title: string, artist = "Ana", user = "US100000", status = "DELIVERED") => ({
  submission_id: id,
  release_title: title,
  artist_name: artist,
  user_id: user,
  genre: "Pop",
  artwork: "cover.webp",
  file: "track.wav",
  lyrics_language: "English",
  status,
});

/** One all-data answer of the music API (product-rules §3 "Release detail", raw shape). */
export const releaseDetailEntry = (id: string, o: { title?: string; genre?: string; sub?: string; date?: string } = {}) => ({
  submissions: { submission_id: id, release_title: o.title ?? `Title ${id}`, label: "", status: "DELIVERED", created_date: "2024-01-01", submitted_date: "2024-01-02" },
  metadata: { album: "Album", genre: o.genre ?? "Pop", sub_genre: o.sub ?? "Indie Pop", parental_advisory: "no", digital_release_date: o.date ?? "2024-01-05", isrc: "", upc: "1", composer: "C", art_work: "a.webp", file: "a.wav" },
  artist: { artist_name: "A" },
  user: { user_id: "U", email: "u@example.com" },
  white_label: { wlabel: "WL", domain: "wl.example.com" },
  single_metadata: { country_of_recording: "Ghana" },
});
