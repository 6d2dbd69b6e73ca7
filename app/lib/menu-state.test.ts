import { describe, expect, it } from "vitest";
import { initialMenuState, isCurrentPath, lockScroll, menuReducer, type MenuState } from "./menu-state";

const open: MenuState = { open: true, restoreFocus: false };

describe("menuReducer", () => {
  it("starts closed", () => {
    expect(initialMenuState.open).toBe(false);
  });

  it("flips between closed and open on toggle", () => {
    const opened = menuReducer(initialMenuState, { type: "toggle" });
    expect(opened.open).toBe(true);
    const closed = menuReducer(opened, { type: "toggle" });
    expect(closed).toEqual({ open: false, restoreFocus: false });
  });

  it("closes on an overlay click and on Esc, returning focus to the toggle", () => {
    expect(menuReducer(open, { type: "close" })).toEqual({ open: false, restoreFocus: true });
    expect(menuReducer(open, { type: "escape" })).toEqual({ open: false, restoreFocus: true });
  });

  it("closes on a link click without stealing focus from the new page", () => {
    expect(menuReducer(open, { type: "navigate" })).toEqual({ open: false, restoreFocus: false });
  });

  it("ignores Esc, overlay and navigation while closed (same state object, no re-render)", () => {
    for (const type of ["escape", "close", "navigate"] as const) {
      expect(menuReducer(initialMenuState, { type })).toBe(initialMenuState);
    }
  });

  it("clears a pending focus restore on the next navigation", () => {
    const closedByEsc = menuReducer(open, { type: "escape" });
    expect(menuReducer(closedByEsc, { type: "navigate" })).toEqual(initialMenuState);
  });
});

describe("lockScroll", () => {
  it("hides overflow on <html> and <body> and restores the previous values", () => {
    const root = { style: { overflow: "" } };
    const body = { style: { overflow: "clip" } };
    const restore = lockScroll(root, body);
    expect(root.style.overflow).toBe("hidden");
    expect(body.style.overflow).toBe("hidden");
    restore();
    expect(root.style.overflow).toBe("");
    expect(body.style.overflow).toBe("clip");
  });
});

describe("isCurrentPath", () => {
  it("matches the exact path only", () => {
    expect(isCurrentPath("/", "/")).toBe(true);
    expect(isCurrentPath("/partners", "/partners")).toBe(true);
    expect(isCurrentPath("/partners", "/partners/")).toBe(true);
    expect(isCurrentPath("/partners", "/partners/music")).toBe(false);
    expect(isCurrentPath("/", "/catalog")).toBe(false);
  });
});
