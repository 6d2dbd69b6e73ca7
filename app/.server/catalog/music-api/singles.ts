import type { ReleaseDetail, Single } from "../../../lib/catalog/types.ts";
import type { RawReleaseDetail, RawSubmission } from "../schemas.ts";

/**
 * product-rules §4 "Singles pipeline", in this order:
 * 1. drop submissions of the excluded test users (MUSIC_API_EXCLUDED_USER_IDS);
 * 2. de-duplicate by submission_id (the first one wins);
 * 3. de-duplicate by release_title + artist_name, ignoring case (the first one wins);
 * 4. sort by release_title, ignoring case (stable for equal titles).
 * Submissions whose status is given and is not DELIVERED are dropped too: only DELIVERED ones
 * are requested (product-rules §7), so this only guards against an upstream that ignores the query.
 */
export function selectVisibleSingles<T extends RawSubmission>(submissions: T[], excludedUserIds: Iterable<string>): T[] {
  const excluded = new Set(excludedUserIds);
  const byId = new Set<string>();
  const byTitleArtist = new Set<string>();
  const kept: T[] = [];
  for (const s of submissions) {
    if (s.status && s.status.toUpperCase() !== "DELIVERED") continue;
    if (excluded.has(s.user_id)) continue;
    if (byId.has(s.submission_id)) continue;
    byId.add(s.submission_id);
    const titleArtist = `${s.release_title.toLowerCase()}\u0000${s.artist_name.toLowerCase()}`;
    if (byTitleArtist.has(titleArtist)) continue;
    byTitleArtist.add(titleArtist);
    kept.push(s);
  }
  return kept
    .map((s, i) => ({ s, i, key: s.release_title.toLowerCase() }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i))
    .map(({ s }) => s);
}

/** product-rules §3 "Single": a catalog list item built from a delivered submission. */
export function reshapeSingle(s: RawSubmission): Single {
  return {
    id: s.submission_id,
    title: s.release_title,
    artist: s.artist_name,
    genre: s.genre,
    // filled from the release detail (DESIGN.md §3, deviation 4)
    subGenre: "",
    artwork: s.artwork,
    audioUrl: s.file,
    language: s.lyrics_language,
    // product-rules §3: left empty
    duration: "",
    releaseDate: "",
    country: "",
    isrc: "",
    upc: "",
    label: "",
    composer: "",
    publisher: "",
    // product-rules §3: a list holding one empty string
    keywords: [""],
  };
}

/** product-rules §3 "Release detail", row by row from the all-data response. */
export function reshapeReleaseDetail(raw: RawReleaseDetail): ReleaseDetail {
  const { submissions, metadata, artist, user, white_label, single_metadata } = raw;
  return {
    submissionId: submissions.submission_id,
    userId: user.user_id,
    artistName: artist.artist_name,
    releaseTitle: submissions.release_title.trim(),
    album: metadata.album,
    genre: metadata.genre,
    subGenre: metadata.sub_genre,
    parentalAdvisory: metadata.parental_advisory === "yes",
    releaseDate: metadata.digital_release_date,
    isrc: metadata.isrc,
    upc: metadata.upc,
    composer: metadata.composer,
    label: submissions.label || white_label.wlabel,
    artwork: metadata.art_work,
    audioFile: metadata.file,
    status: submissions.status,
    country: single_metadata.country_of_recording,
    createdDate: submissions.created_date,
    submittedDate: submissions.submitted_date,
    whiteLabelDomain: white_label.domain,
    contactEmail: user.email,
  };
}

/** Fills what the list item lacks from its release detail (DESIGN.md §3, deviation 4). */
export function withDetail(single: Single, detail: ReleaseDetail | undefined): Single {
  if (!detail) return single;
  return {
    ...single,
    subGenre: detail.subGenre,
    releaseDate: detail.releaseDate,
    genre: single.genre || detail.genre,
  };
}
