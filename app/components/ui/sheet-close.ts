// Its own module so the static panel (detail-sheet.tsx) can use it without pulling Radix into
// the catalog's first load (ADR 0147).
/**
 * The close button: over the cover art on a phone (issue #41), so it carries its own dark,
 * nearly opaque disc and border (the text colour on it passes AA on any cover) and a 44 px
 * target; it stays above the panel's content while that scrolls.
 */
export const SHEET_CLOSE_CLASS =
  "absolute top-3 right-3 z-10 grid size-11 place-items-center rounded-full border border-white/25 bg-[#0b0b14]/90 text-fg shadow-[0_2px_12px_rgb(0_0_0/0.6)] backdrop-blur-sm hover:bg-[#1c1c2b] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[#ffb38f]";
