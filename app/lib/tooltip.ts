// product-rules §9: tooltips appear after 700 ms, skip-delay 300 ms, offset 4 px.
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
export const TOOLTIP_OFFSET_PX = 4;

/** Room kept between a tooltip and the edge of the viewport. */
const VIEWPORT_MARGIN_PX = 8;

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

/**
 * Where a tooltip of `tip`'s size goes for a trigger at `trigger` (viewport coordinates):
 * centred above it, `TOOLTIP_OFFSET_PX` away, below it when there is no room above (under the
 * fixed header, `topInset`), and shifted sideways to stay inside the viewport.
 */
export function placeTooltip(trigger: Box, tip: Pick<Box, "width" | "height">, viewportWidth: number, topInset = 0) {
  let top = trigger.top - TOOLTIP_OFFSET_PX - tip.height;
  if (top < topInset + VIEWPORT_MARGIN_PX) top = trigger.top + trigger.height + TOOLTIP_OFFSET_PX;
  const centred = trigger.left + trigger.width / 2 - tip.width / 2;
  const left = Math.max(VIEWPORT_MARGIN_PX, Math.min(centred, viewportWidth - VIEWPORT_MARGIN_PX - tip.width));
  return { top, left };
}
