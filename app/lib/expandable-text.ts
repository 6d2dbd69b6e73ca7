/**
 * Measuring rules of the expandable text block (product-rules §4 "Expandable text block", §9).
 * Pure functions so the arithmetic is unit-tested apart from the DOM.
 */

/** product-rules §9: collapsed blocks show 3 lines unless told otherwise. */
export const DEFAULT_EXPANDABLE_LINES = 3;

/** product-rules §9: when the line height is unavailable it is taken as 1.2 × the font size. */
export const FALLBACK_LINE_HEIGHT_FACTOR = 1.2;

/**
 * Line height in pixels from the computed `line-height` ("25.6px", or "normal" when the
 * author set none) and the computed font size in pixels.
 */
export function lineHeightPx(computedLineHeight: string, fontSizePx: number): number {
  const parsed = Number.parseFloat(computedLineHeight);
  if (Number.isFinite(parsed) && parsed > 0 && computedLineHeight.trim().endsWith("px")) return parsed;
  return FALLBACK_LINE_HEIGHT_FACTOR * fontSizePx;
}

/**
 * True when content of `scrollHeight` pixels needs more than `lines` lines. The limit is
 * rounded up because layout heights are whole pixels while 8 × 25.6 px is not: content
 * that exactly fills the limit is not "longer than the limit".
 */
export function isOverflowing(scrollHeight: number, lineHeight: number, lines: number = DEFAULT_EXPANDABLE_LINES): boolean {
  if (!(lineHeight > 0) || !(lines > 0)) return false;
  return scrollHeight > Math.ceil(lineHeight * lines);
}
