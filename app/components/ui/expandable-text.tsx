import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties } from "react";
import { cn } from "~/lib/cn";
import { DEFAULT_EXPANDABLE_LINES, isOverflowing, lineHeightPx } from "~/lib/expandable-text";

type Content = { text: string; html?: never } | { html: string; text?: never };

export type ExpandableTextProps = Content & {
  /** Lines shown while collapsed (spec §9: 3 by default, 8 for the blockchain text). */
  lines?: number;
  className?: string;
  /** Classes for the text box itself (font size, colour, prose styles). */
  contentClassName?: string;
};

// useLayoutEffect measures before the first paint after hydration, so the "more..."
// control never flickers; on the server there is nothing to measure.
const useIsomorphicLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

/**
 * Spec §4 "Expandable text block": collapsed to `lines` lines with "..." and a "more..."
 * control when the content is longer; expanded it shows "less". Re-measured on resize.
 *
 * ADR 0031. The clamp is CSS (line-clamp) from the first server-rendered byte, so nothing
 * shrinks after hydration (no layout shift). The control's row is reserved (invisible)
 * until the first measurement. Without JavaScript (`@media (scripting: none)`) the text is
 * shown in full and the control, which could not work, is hidden.
 */
export function ExpandableText({ text, html, lines = DEFAULT_EXPANDABLE_LINES, className, contentClassName }: ExpandableTextProps) {
  const contentId = `${useId()}-text`;
  const contentRef = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  /** null until measured in the browser. */
  const [overflowing, setOverflowing] = useState<boolean | null>(null);

  const measure = useCallback(() => {
    const el = contentRef.current;
    if (!el) return;
    const style = window.getComputedStyle(el);
    const lineHeight = lineHeightPx(style.lineHeight, Number.parseFloat(style.fontSize));
    // scrollHeight is the full content height whether or not the box is clamped.
    setOverflowing(isOverflowing(el.scrollHeight, lineHeight, lines));
  }, [lines]);

  useIsomorphicLayoutEffect(() => {
    measure();
    window.addEventListener("resize", measure);
    // The web font changes line breaks once it arrives.
    let cancelled = false;
    void document.fonts?.ready.then(() => {
      if (!cancelled) measure();
    });
    return () => {
      cancelled = true;
      window.removeEventListener("resize", measure);
    };
  }, [measure]);

  const clampStyle = { "--expandable-lines": lines } as CSSProperties;

  return (
    <div className={className}>
      {html !== undefined ? (
        <div
          id={contentId}
          ref={contentRef}
          style={clampStyle}
          className={cn(
            "[&>:first-child]:mt-0 [&>:last-child]:mb-0",
            !expanded && "line-clamp-(--expandable-lines) [@media(scripting:none)]:line-clamp-none",
            contentClassName,
          )}
          // Trusted HTML: it comes from our own typed content in app/content, never from visitors.
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : (
        <div
          id={contentId}
          ref={contentRef}
          style={clampStyle}
          className={cn(
            "whitespace-pre-line",
            !expanded && "line-clamp-(--expandable-lines) [@media(scripting:none)]:line-clamp-none",
            contentClassName,
          )}
        >
          {text}
        </div>
      )}
      {overflowing !== false && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={contentId}
          onClick={() => setExpanded((v) => !v)}
          className={cn(
            "relative z-10 mt-1 min-h-6 rounded-sm py-1 text-sm font-semibold text-ring underline-offset-4 hover:underline [@media(scripting:none)]:hidden",
            overflowing === null && "invisible",
          )}
        >
          {expanded ? "less" : "more..."}
        </button>
      )}
    </div>
  );
}
