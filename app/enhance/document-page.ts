/**
 * The only script of a document page (ADR 0083): pages whose route handle says
 * `hydrate: false` ship this instead of React. It wires the server's markup (menu, dialogs,
 * tooltips, expandable text, the offline notice) and registers the service worker.
 * Built by Vite as one self-contained file (imported with `?worker&url` in app/root.tsx).
 */
import { onFirstInteraction } from "~/lib/first-interaction";
import { registerServiceWorker } from "~/lib/register-sw";
import { enhanceDialogs } from "./dialog";
import { enhanceExpandableText } from "./expandable-text";
import { enhanceMenu } from "./menu";
import { enhanceNotifications } from "./notifications";
import { enhanceShortlistCount } from "./shortlist-count";
import { enhanceTooltips } from "./tooltip";

// Each part on its own: one that throws (an old browser without some API) leaves the others
// working, as the page itself works without any of them.
// product-rules §1: a service worker at /sw.js, registered (after the load) at the visitor's first
// interaction, as on the React pages (ADR 0160). Its install precaches every hashed asset (72
// requests and their cache writes); at the load it competed with the page on a phone's cores:
// /partners/film's main thread took 80 ms less CPU without it (ADR 0150, amended, sixth session).
const registerAtFirstInteraction = () => onFirstInteraction(window, () => registerServiceWorker());
for (const enhance of [enhanceMenu, enhanceDialogs, enhanceTooltips, enhanceExpandableText, enhanceNotifications, enhanceShortlistCount, registerAtFirstInteraction]) {
  try {
    enhance();
  } catch (error) {
    console.error(error);
  }
}
// The same signal the React pages give once hydrated: end-to-end tests wait for it.
document.documentElement.dataset.hydrated = "true";
