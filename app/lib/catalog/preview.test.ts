import { describe, expect, it, vi } from "vitest";
import { createPreviewCoordinator, PREVIEW_SECONDS, previewPercent, previewProgress, previewShouldStop } from "./preview.ts";

describe("audio preview (product-rules §4, §9)", () => {
  it("lasts 10 seconds", () => expect(PREVIEW_SECONDS).toBe(10));
  it("progress is current time ÷ 10 s, within 0…1", () => {
    expect(previewProgress(0)).toBe(0);
    expect(previewProgress(2.5)).toBe(0.25);
    expect(previewProgress(10)).toBe(1);
    expect(previewProgress(14)).toBe(1);
    expect(previewProgress(-1)).toBe(0);
    expect(previewProgress(Number.NaN)).toBe(0);
    expect(previewPercent(3.33)).toBe(33);
  });
  it("stops at 10 s", () => {
    expect(previewShouldStop(9.99)).toBe(false);
    expect(previewShouldStop(10)).toBe(true);
    expect(previewShouldStop(Number.POSITIVE_INFINITY)).toBe(false);
  });
  it("lets only one preview play at a time", () => {
    const c = createPreviewCoordinator();
    const stopA = vi.fn();
    const stopB = vi.fn();
    c.claim("a", stopA);
    expect(c.current()).toBe("a");
    c.claim("b", stopB);
    expect(stopA).toHaveBeenCalledTimes(1);
    expect(c.current()).toBe("b");
    c.claim("b", stopB); // re-claiming your own turn stops nobody
    expect(stopB).not.toHaveBeenCalled();
    c.release("a"); // a stale release does nothing
    expect(c.current()).toBe("b");
    c.release("b");
    expect(c.current()).toBeNull();
  });
});
