/**
 * product-rules §1 and §8: the site registers a background service worker at /sw.js, never before
 * the load, and a failed registration is only logged. Both kinds of page call this at the visitor's
 * first interaction (ADR 0160; ADR 0150 amended). The worker itself is server/service-worker.ts.
 */
export function registerServiceWorker(
  win: Pick<Window, "addEventListener"> & { navigator: Pick<Navigator, "serviceWorker"> } = window,
  doc: Pick<Document, "readyState"> = document,
): void {
  const container = win.navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!container) return;
  const register = () => {
    container.register("/sw.js", { scope: "/" }).catch((error: unknown) => {
      console.error("Service worker registration failed:", error);
    });
  };
  // After the load event, so precaching never competes with the page's own requests.
  if (doc.readyState === "complete") register();
  else win.addEventListener("load", register, { once: true });
}
