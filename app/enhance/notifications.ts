import { OFFLINE_NOTICE } from "~/lib/offline-notice";

const HOTKEY_LABEL = "alt+T";

/**
 * product-rules §2 "In-app notifications" on document pages (ADR 0083). The only notification these
 * pages raise is the offline notice, and it has to work with no network: so it is built here,
 * not by loading sonner and React when the connection is already gone. Same region as the
 * React pages' toaster: labelled "Notifications" (plus the hotkey, as sonner names it),
 * polite, focused by Alt+T, following the system theme (app.css `.site-notice`).
 */
export function enhanceNotifications(doc: Document = document): void {
  const win = doc.defaultView!;
  const region = doc.createElement("section");
  region.setAttribute("aria-label", `Notifications ${HOTKEY_LABEL}`);
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-relevant", "additions text");
  region.setAttribute("aria-atomic", "false");
  region.tabIndex = -1;
  region.className = "site-notices";
  doc.body.append(region);

  let notice: HTMLElement | null = null;
  const dismiss = () => {
    notice?.remove();
    notice = null;
  };
  const showOffline = () => {
    dismiss();
    notice = doc.createElement("div");
    notice.className = "site-notice";
    const title = doc.createElement("p");
    title.className = "site-notice-title";
    title.textContent = OFFLINE_NOTICE.title;
    const text = doc.createElement("p");
    text.textContent = OFFLINE_NOTICE.description;
    const close = doc.createElement("button");
    close.type = "button";
    close.className = "site-notice-close";
    close.setAttribute("aria-label", "Close notification");
    close.textContent = "×";
    close.addEventListener("click", dismiss);
    notice.append(title, text, close);
    region.append(notice);
  };

  win.addEventListener("offline", showOffline);
  win.addEventListener("online", dismiss);
  doc.addEventListener("keydown", (event) => {
    if (event.altKey && event.code === "KeyT") {
      event.preventDefault();
      region.focus();
    }
  });
}
