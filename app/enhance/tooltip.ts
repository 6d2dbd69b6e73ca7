import { placeTooltip, TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "~/lib/tooltip";

const TOOLTIP_ID = "site-tooltip";

/**
 * Tooltips on document pages (ADR 0083), for every element with `data-tooltip`: shown after
 * the product-rules §9 delay on hover (at once within the skip delay of the last one), at once on
 * keyboard focus, hidden on leave, blur, press, scroll and Esc. One listener per event for the
 * whole page, so 162 partner tiles cost nothing to set up. The tooltip element is placed in
 * <main>, so it stays inside a landmark.
 */
export function enhanceTooltips(doc: Document = document): void {
  if (!doc.querySelector("[data-tooltip]")) return;
  const win = doc.defaultView!;
  const host = doc.querySelector("main") ?? doc.body;
  let trigger: HTMLElement | null = null;
  let tip: HTMLElement | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastHidden = -Infinity;

  const triggerOf = (target: EventTarget | null) =>
    target instanceof Element ? target.closest<HTMLElement>("[data-tooltip]") : null;

  function show(el: HTMLElement) {
    clearTimeout(timer);
    if (trigger === el) return;
    hide();
    tip = doc.createElement("div");
    tip.id = TOOLTIP_ID;
    tip.setAttribute("role", "tooltip");
    tip.className = "site-tooltip";
    tip.textContent = el.dataset.tooltip ?? "";
    host.append(tip);
    const box = el.getBoundingClientRect();
    const header = doc.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
    const { top, left } = placeTooltip(box, tip.getBoundingClientRect(), doc.documentElement.clientWidth, header);
    tip.style.top = `${top}px`;
    tip.style.left = `${left}px`;
    el.setAttribute("aria-describedby", TOOLTIP_ID);
    trigger = el;
  }

  function hide() {
    clearTimeout(timer);
    if (!trigger) return;
    trigger.removeAttribute("aria-describedby");
    tip?.remove();
    trigger = tip = null;
    lastHidden = performance.now();
  }

  doc.addEventListener("pointerover", (event) => {
    const el = triggerOf(event.target);
    if (!el || event.pointerType === "touch" || el === trigger) return;
    clearTimeout(timer);
    const delay = performance.now() - lastHidden < TOOLTIP_SKIP_DELAY_MS ? 0 : TOOLTIP_DELAY_MS;
    timer = setTimeout(() => show(el), delay);
  });
  doc.addEventListener("pointerout", (event) => {
    const el = triggerOf(event.target);
    if (el && !el.contains(event.relatedTarget as Node | null)) {
      if (el === trigger) hide();
      else clearTimeout(timer);
    }
  });
  doc.addEventListener("focusin", (event) => {
    const el = triggerOf(event.target);
    if (el && el.matches(":focus-visible")) show(el);
  });
  doc.addEventListener("focusout", (event) => {
    if (triggerOf(event.target) === trigger) hide();
  });
  doc.addEventListener("pointerdown", hide);
  doc.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hide();
  });
  win.addEventListener("scroll", hide, { passive: true });
}
