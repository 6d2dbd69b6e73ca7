import { readShortlist, SHORTLIST_STORAGE_KEY, shortlistLinkLabel } from "~/lib/shortlist/shortlist";

/**
 * The header's shortlist counter on document pages (issue #11; React fills it in on app pages,
 * app/components/layout/shortlist-link.tsx): the number of entries in localStorage, read and
 * validated like the list itself, updated when another tab changes it and when the page comes
 * back from the back/forward cache. The badge sits outside the flow, so nothing moves.
 */
export function enhanceShortlistCount() {
  const update = () => {
    let raw: string | null;
    try {
      raw = localStorage.getItem(SHORTLIST_STORAGE_KEY);
    } catch {
      raw = null;
    }
    const count = readShortlist(raw).length;
    for (const link of document.querySelectorAll<HTMLElement>("[data-shortlist-link]")) {
      link.setAttribute("aria-label", shortlistLinkLabel(count));
      const badge = link.querySelector("[data-shortlist-count]");
      if (badge) badge.textContent = count ? String(count) : "";
    }
  };
  update();
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === SHORTLIST_STORAGE_KEY) update();
  });
  window.addEventListener("pageshow", update);
}
