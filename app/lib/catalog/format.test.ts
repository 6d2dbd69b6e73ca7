import { describe, expect, it } from "vitest";
import { formatCount, formatDuration, formatReleaseDate, formatSubscribers, formatUpdated, isoDuration } from "./format.ts";

describe("formatSubscribers (product-rules §9)", () => {
  it("shows millions as x.xM", () => {
    expect(formatSubscribers(1_000_000)).toBe("1.0M");
    expect(formatSubscribers(2_450_000)).toBe("2.5M");
    expect(formatSubscribers(15_300_000)).toBe("15.3M");
  });
  it("shows thousands as x.xK", () => {
    expect(formatSubscribers(1_000)).toBe("1.0K");
    expect(formatSubscribers(12_345)).toBe("12.3K");
    expect(formatSubscribers(999_949)).toBe("999.9K");
  });
  it("shows smaller counts as they are", () => {
    expect(formatSubscribers(0)).toBe("0");
    expect(formatSubscribers(999)).toBe("999");
    expect(formatSubscribers(Number.NaN)).toBe("0");
  });
  it("formats video counts with separators", () => {
    expect(formatCount(12345)).toBe("12,345");
  });
  it("groups whole counts without Intl exactly as Intl does (ADR 0147)", () => {
    const intl = new Intl.NumberFormat("en-US");
    for (const n of [0, 7, 12, 999, 1000, 1001, 99_999, 100_000, 123_456, 1_000_000, 2_500_000, -1234, -999, Number.MAX_SAFE_INTEGER]) {
      expect(formatCount(n)).toBe(intl.format(n));
    }
    expect(formatCount(1234.5)).toBe("1,234.5");
    expect(formatCount(Number.NaN)).toBe("0");
  });
});

describe("formatReleaseDate (product-rules §2 Single card)", () => {
  it("formats like Jan 5, 2024", () => {
    expect(formatReleaseDate("2024-01-05")).toBe("Jan 5, 2024");
    expect(formatReleaseDate("2023-12-31T23:30:00Z")).toBe("Dec 31, 2023");
  });
  it("keeps a bare date on its calendar day", () => {
    expect(formatReleaseDate("2024-03-01")).toBe("Mar 1, 2024");
  });
  it("is empty for missing or invalid dates", () => {
    expect(formatReleaseDate("")).toBe("");
    expect(formatReleaseDate("not a date")).toBe("");
  });
});

describe("formatUpdated (product-rules §2 Channel card)", () => {
  it("prefixes the local date with Updated", () => {
    expect(formatUpdated("2024-06-15T10:00:00Z", "en-US", "UTC")).toBe("Updated 6/15/2024");
    expect(formatUpdated("2024-06-15T10:00:00Z", "de-DE", "UTC")).toBe("Updated 15.6.2024");
  });
  it("uses the given time zone", () => {
    expect(formatUpdated("2024-06-15T23:30:00Z", "en-US", "Asia/Tokyo")).toBe("Updated 6/16/2024");
  });
  it("is empty for invalid dates", () => {
    expect(formatUpdated("yesterday")).toBe("");
  });
});

describe("track lengths (issue #9)", () => {
  it("shows m:ss, rounded to the second", () => {
    expect(formatDuration(125)).toBe("2:05");
    expect(formatDuration(30.07)).toBe("0:30");
    expect(formatDuration(59.6)).toBe("1:00");
    expect(formatDuration(180)).toBe("3:00");
    expect(formatDuration(3664)).toBe("61:04");
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(Number.NaN)).toBe("0:00");
  });
  it("gives schema.org an ISO 8601 duration", () => {
    expect(isoDuration(125)).toBe("PT2M5S");
    expect(isoDuration(30.07)).toBe("PT30S");
    expect(isoDuration(180)).toBe("PT3M");
    expect(isoDuration(3664)).toBe("PT1H1M4S");
    expect(isoDuration(3600)).toBe("PT1H");
    expect(isoDuration(0)).toBe("PT0S");
    expect(isoDuration(-3)).toBe("PT0S");
  });
});
