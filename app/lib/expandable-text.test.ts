import { describe, expect, it } from "vitest";
import { DEFAULT_EXPANDABLE_LINES, isOverflowing, lineHeightPx } from "./expandable-text";

describe("lineHeightPx", () => {
  it("uses the computed line height when the browser gives one in pixels", () => {
    expect(lineHeightPx("25.6px", 16)).toBe(25.6);
    expect(lineHeightPx("24px", 10)).toBe(24);
  });

  it("falls back to 1.2 × the font size when the line height is 'normal'", () => {
    expect(lineHeightPx("normal", 16)).toBeCloseTo(19.2);
    expect(lineHeightPx("normal", 20)).toBeCloseTo(24);
  });

  it("falls back to 1.2 × the font size when the value is empty or unusable", () => {
    expect(lineHeightPx("", 10)).toBeCloseTo(12);
    expect(lineHeightPx("0px", 10)).toBeCloseTo(12);
    expect(lineHeightPx("1.5", 10)).toBeCloseTo(12);
  });
});

describe("isOverflowing", () => {
  it("defaults to a limit of 3 lines", () => {
    expect(DEFAULT_EXPANDABLE_LINES).toBe(3);
    expect(isOverflowing(60, 20)).toBe(false);
    expect(isOverflowing(61, 20)).toBe(true);
  });

  it("treats content that exactly fills the limit as not overflowing", () => {
    expect(isOverflowing(160, 20, 8)).toBe(false);
    expect(isOverflowing(161, 20, 8)).toBe(true);
  });

  it("rounds a fractional limit up to whole layout pixels", () => {
    // 8 lines × 25.6 px = 204.8 px; the browser reports 205 for exactly 8 lines
    expect(isOverflowing(205, 25.6, 8)).toBe(false);
    expect(isOverflowing(206, 25.6, 8)).toBe(true);
  });

  it("uses the 1.2 × font size fallback end to end", () => {
    const lh = lineHeightPx("normal", 15); // 18 px
    expect(isOverflowing(54, lh)).toBe(false);
    expect(isOverflowing(55, lh)).toBe(true);
  });

  it("never reports overflow for a zero line height or limit", () => {
    expect(isOverflowing(500, 0, 3)).toBe(false);
    expect(isOverflowing(500, 20, 0)).toBe(false);
  });

  it("shorter content is not overflowing", () => {
    expect(isOverflowing(40, 20, 3)).toBe(false);
  });
});
