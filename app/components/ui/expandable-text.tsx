import { useId, type CSSProperties } from "react";
import { cn } from "~/lib/cn";
import { DEFAULT_EXPANDABLE_LINES } from "~/lib/expandable-text";

type Content = { text: string; html?: never } | { html: string; text?: never };

export type ExpandableTextProps = Content & {
  /** Lines shown while collapsed (product-rules §9: 3 by default, 8 for the blockchain text). */
  lines?: number;
  className?: string;
  /** Classes for the text box itself (font size, colour, prose styles). */
  contentClassName?: string;
};

/**
 * product-rules §4 "Expandable text block": collapsed to `lines` lines with "..." and a "more..."
 * control when the content is longer; expanded it shows "less". Re-measured on resize.
 *
 * ADR 0031, ADR 0083. Used on document pages: this renders the markup, and
 * app/enhance/expandable-text.ts measures it and wires the control. The clamp is CSS
 * (`.expandable-content`, line-clamp) from the first byte, and the control's row is reserved
 * (invisible) until measured, so nothing moves after the first paint. Without JavaScript
 * (`@media (scripting: none)`) the text is shown in full and the control is hidden.
 */
export function ExpandableText({ text, html, lines = DEFAULT_EXPANDABLE_LINES, className, contentClassName }: ExpandableTextProps) {
  const contentId = `${useId()}-text`;
  const clampStyle = { "--expandable-lines": lines } as CSSProperties;
  return (
    <div className={className}>
      {html !== undefined ? (
        <div
          id={contentId}
          style={clampStyle}
          className={cn("expandable-content [&>:first-child]:mt-0 [&>:last-child]:mb-0", contentClassName)}
          // Trusted HTML: it comes from our own typed content in app/content, never from visitors.
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : (
        <div id={contentId} style={clampStyle} className={cn("expandable-content whitespace-pre-line", contentClassName)}>
          {text}
        </div>
      )}
      <button
        type="button"
        data-expandable-toggle
        aria-expanded={false}
        aria-controls={contentId}
        className="invisible relative z-10 mt-1 min-h-6 rounded-sm py-1 text-sm font-semibold text-ring underline-offset-4 hover:underline [@media(scripting:none)]:hidden"
      >
        more...
      </button>
    </div>
  );
}
