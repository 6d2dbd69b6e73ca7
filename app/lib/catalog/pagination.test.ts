import { describe, expect, it } from "vitest";
import { clampPage, PAGE_SIZE, pageCountFor, paginationWindow } from "./pagination.ts";

describe("pagination (product-rules §2, §9)", () => {
  it("has 12 items per page", () => {
    expect(PAGE_SIZE).toBe(12);
    expect(pageCountFor(0)).toBe(0);
    expect(pageCountFor(12)).toBe(1);
    expect(pageCountFor(13)).toBe(2);
    expect(pageCountFor(25_000)).toBe(2084);
  });

  it("is hidden at one page or fewer", () => {
    expect(paginationWindow(1, 0)).toEqual([]);
    expect(paginationWindow(1, 1)).toEqual([]);
  });

  it("shows every page when there are few", () => {
    expect(paginationWindow(1, 2)).toEqual([1, 2]);
    expect(paginationWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it("shows page 1, the last page and current ± 2, with gaps", () => {
    expect(paginationWindow(1, 10)).toEqual([1, 2, 3, "gap", 10]);
    expect(paginationWindow(4, 10)).toEqual([1, 2, 3, 4, 5, 6, "gap", 10]);
    expect(paginationWindow(6, 20)).toEqual([1, "gap", 4, 5, 6, 7, 8, "gap", 20]);
    expect(paginationWindow(20, 20)).toEqual([1, "gap", 18, 19, 20]);
  });

  it("shows a gap even for a single skipped page", () => {
    // page 5 of 10: 3..7 plus 1 and 10; 2 is skipped → gap between 1 and 3
    expect(paginationWindow(5, 10)).toEqual([1, "gap", 3, 4, 5, 6, 7, "gap", 10]);
  });

  it("clamps an out-of-range current page", () => {
    expect(paginationWindow(99, 4)).toEqual([1, 2, 3, 4]);
    expect(paginationWindow(-3, 10)).toEqual([1, 2, 3, "gap", 10]);
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(7, 5)).toBe(5);
    expect(clampPage(3, 0)).toBe(1);
    expect(clampPage(Number.NaN, 5)).toBe(1);
  });
});
