import { describe, expect, it } from "vitest";
import { rawReleaseDetailSchema, rawSubmissionSchema } from "../schemas.ts";
import { reshapeReleaseDetail, reshapeSingle, selectVisibleSingles, withDetail } from "./singles.ts";

const sub = (o: Record<string, unknown>) =>
  rawSubmissionSchema.parse({
    submission_id: "S1",
    release_title: "Title",
    artist_name: "Artist",
    user_id: "U1",
    genre: "Pop",
    artwork: "a.webp",
    file: "a.wav",
    lyrics_language: "English",
    ...o,
  });

describe("selectVisibleSingles (product-rules §4 Singles pipeline)", () => {
  it("drops excluded test users", () => {
    const list = [sub({ submission_id: "1", user_id: "US123456", release_title: "A" }), sub({ submission_id: "2", release_title: "B" })];
    expect(selectVisibleSingles(list, ["US123456"]).map((s) => s.submission_id)).toEqual(["2"]);
  });

  it("de-duplicates by submission_id, keeping the first", () => {
    const list = [sub({ submission_id: "1", release_title: "A" }), sub({ submission_id: "1", release_title: "B" })];
    expect(selectVisibleSingles(list, []).map((s) => s.release_title)).toEqual(["A"]);
  });

  it("de-duplicates by title + artist ignoring case", () => {
    const list = [
      sub({ submission_id: "1", release_title: "Night Drive", artist_name: "Ana Costa" }),
      sub({ submission_id: "2", release_title: "NIGHT DRIVE", artist_name: "ana costa" }),
      sub({ submission_id: "3", release_title: "Night Drive", artist_name: "Someone Else" }),
    ];
    expect(selectVisibleSingles(list, []).map((s) => s.submission_id)).toEqual(["1", "3"]);
  });

  it("sorts by title ignoring case", () => {
    const list = ["banana", "Apple", "cherry", "apricot"].map((t, i) => sub({ submission_id: String(i), release_title: t }));
    expect(selectVisibleSingles(list, []).map((s) => s.release_title)).toEqual(["Apple", "apricot", "banana", "cherry"]);
  });

  it("applies the steps in order: an excluded duplicate does not hide a visible one", () => {
    const list = [
      sub({ submission_id: "1", user_id: "US000001", release_title: "Same" }),
      sub({ submission_id: "1", user_id: "U2", release_title: "Same" }),
    ];
    expect(selectVisibleSingles(list, ["US000001"]).map((s) => s.user_id)).toEqual(["U2"]);
  });

  it("drops submissions whose status is not DELIVERED", () => {
    const list = [sub({ submission_id: "1", status: "PENDING" }), sub({ submission_id: "2", status: "DELIVERED" })];
    expect(selectVisibleSingles(list, []).map((s) => s.submission_id)).toEqual(["2"]);
  });
});

describe("reshapeSingle (product-rules §3 Single)", () => {
  it("maps the submission fields and leaves the rest empty", () => {
    expect(reshapeSingle(sub({ submission_id: 42, release_title: "T", artist_name: "A", genre: "Jazz", artwork: "c.webp", file: "t.wav", lyrics_language: "French" }))).toEqual({
      id: "42",
      title: "T",
      artist: "A",
      genre: "Jazz",
      subGenre: "",
      artwork: "c.webp",
      audioUrl: "t.wav",
      language: "French",
      duration: "",
      releaseDate: "",
      country: "",
      isrc: "",
      upc: "",
      label: "",
      composer: "",
      publisher: "",
      keywords: [""],
    });
  });
});

const allData = {
  submissions: {
    submission_id: "SUB-1",
    release_title: "  Padded Title ",
    label: "Own Label",
    status: "DELIVERED",
    created_date: "2024-01-01T00:00:00Z",
    submitted_date: "2024-01-02T00:00:00Z",
  },
  metadata: {
    album: "The Album",
    genre: "Pop",
    sub_genre: "Indie Pop",
    parental_advisory: "yes",
    digital_release_date: "2024-01-05",
    isrc: "USX7Q2400001",
    upc: "123456789012",
    composer: "C. Writer",
    art_work: "art.webp",
    file: "audio.wav",
  },
  artist: { artist_name: "The Artist" },
  user: { user_id: "US555555", email: "artist@example.com" },
  white_label: { wlabel: "White Label Co", domain: "music.example.com" },
  single_metadata: { country_of_recording: "Ghana" },
};

describe("reshapeReleaseDetail (product-rules §3 Release detail)", () => {
  const detail = reshapeReleaseDetail(rawReleaseDetailSchema.parse(allData));

  it.each([
    ["submissionId", "SUB-1"],
    ["userId", "US555555"],
    ["artistName", "The Artist"],
    ["releaseTitle", "Padded Title"],
    ["album", "The Album"],
    ["genre", "Pop"],
    ["subGenre", "Indie Pop"],
    ["parentalAdvisory", true],
    ["releaseDate", "2024-01-05"],
    ["isrc", "USX7Q2400001"],
    ["upc", "123456789012"],
    ["composer", "C. Writer"],
    ["label", "Own Label"],
    ["artwork", "art.webp"],
    ["audioFile", "audio.wav"],
    ["status", "DELIVERED"],
    ["country", "Ghana"],
    ["createdDate", "2024-01-01T00:00:00Z"],
    ["submittedDate", "2024-01-02T00:00:00Z"],
    ["whiteLabelDomain", "music.example.com"],
    ["contactEmail", "artist@example.com"],
  ] as const)("%s", (field, expected) => {
    expect(detail[field]).toEqual(expected);
  });

  it("has exactly the fields of the table", () => {
    expect(Object.keys(detail)).toHaveLength(21);
  });

  it("label falls back to white_label.wlabel when submissions.label is empty or missing", () => {
    const noLabel = { ...allData, submissions: { ...allData.submissions, label: "" } };
    expect(reshapeReleaseDetail(rawReleaseDetailSchema.parse(noLabel)).label).toBe("White Label Co");
    const nullLabel = { ...allData, submissions: { ...allData.submissions, label: null } };
    expect(reshapeReleaseDetail(rawReleaseDetailSchema.parse(nullLabel)).label).toBe("White Label Co");
  });

  it("parental advisory is true only for exactly 'yes'", () => {
    for (const [value, expected] of [["yes", true], ["no", false], ["Yes", false], ["", false], [null, false]] as const) {
      const raw = { ...allData, metadata: { ...allData.metadata, parental_advisory: value } };
      expect(reshapeReleaseDetail(rawReleaseDetailSchema.parse(raw)).parentalAdvisory).toBe(expected);
    }
  });

  it("tolerates missing groups and null fields (empty strings)", () => {
    const detail = reshapeReleaseDetail(rawReleaseDetailSchema.parse({ submissions: { submission_id: "X", release_title: null } }));
    expect(detail.submissionId).toBe("X");
    expect(detail.releaseTitle).toBe("");
    expect(detail.label).toBe("");
    expect(detail.isrc).toBe("");
    expect(detail.parentalAdvisory).toBe(false);
  });

  it("fills a single's sub-genre and release date from its detail", () => {
    const single = withDetail(reshapeSingle(sub({ submission_id: "SUB-1" })), detail);
    expect(single.subGenre).toBe("Indie Pop");
    expect(single.releaseDate).toBe("2024-01-05");
  });
});
