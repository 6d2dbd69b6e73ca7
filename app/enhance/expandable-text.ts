import { DEFAULT_EXPANDABLE_LINES, isOverflowing, lineHeightPx } from "~/lib/expandable-text";

/**
 * product-rules §4 "Expandable text block" on document pages (ADR 0031, ADR 0083). The server renders
 * the text clamped by CSS and the "more..." button reserved but invisible
 * (app/components/ui/expandable-text.tsx); this measures the text and shows the button only
 * when the text is longer than its lines. A text that fits keeps the invisible row, so nothing
 * below it moves after the first paint (CLS 0).
 */
export function enhanceExpandableText(doc: Document = document): void {
  const blocks = [...doc.querySelectorAll<HTMLButtonElement>("button[data-expandable-toggle]")].flatMap((button) => {
    const content = doc.getElementById(button.getAttribute("aria-controls") ?? "");
    return content ? [{ button, content }] : [];
  });
  if (!blocks.length) return;
  const win = doc.defaultView!;

  const measure = () => {
    for (const { button, content } of blocks) {
      const style = win.getComputedStyle(content);
      const lines = Number(style.getPropertyValue("--expandable-lines")) || DEFAULT_EXPANDABLE_LINES;
      const lineHeight = lineHeightPx(style.lineHeight, Number.parseFloat(style.fontSize));
      // scrollHeight is the full content height whether or not the box is clamped.
      button.classList.toggle("invisible", !isOverflowing(content.scrollHeight, lineHeight, lines));
    }
  };

  for (const { button, content } of blocks) {
    button.addEventListener("click", () => {
      const expanded = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(expanded));
      content.dataset.expanded = String(expanded);
      button.textContent = expanded ? "less" : "more...";
    });
  }
  measure();
  win.addEventListener("resize", measure);
  // The web font changes line breaks once it arrives.
  void doc.fonts?.ready.then(measure);
}
