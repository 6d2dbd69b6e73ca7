/**
 * Pages whose HTML depends on nothing but the code, the content in app/content and the configuration.
 * They are cached by the server (ADR 0002) and listed in sitemap.xml with /catalog and /contact.
 */
export const STATIC_PAGE_PATHS = [
  "/",
  "/mission",
  "/board",
  "/innovation",
  "/ai-brands",
  "/investors",
  "/podcasts",
  "/partners",
  "/partners/music",
  "/partners/film",
  "/partners/youtube",
  "/web3",
  "/web3/blockchain",
  "/web3/tokenization",
  "/web3/metadata",
  // Issue #11: the accessibility statement (linked from the footer's bottom row)
  "/accessibility",
  // Issue #16: the privacy policy and the terms of use (the footer's bottom row, each form's notice)
  "/privacy",
  "/terms",
] as const;

export const DYNAMIC_PAGE_PATHS = ["/catalog", "/contact"] as const;

/** The search by a file of one's own (DESIGN.md §3c); the sitemap lists it too (issue #41). */
export const SOUND_SEARCH_PATH = "/catalog/sounds-like";

/** Every page of product-rules §2 with a fixed path: the sitemap, the SEO tests and the Lighthouse bench. */
export const SITE_PAGE_PATHS: readonly string[] = [...STATIC_PAGE_PATHS, ...DYNAMIC_PAGE_PATHS];

export function isStaticPage(path: string): boolean {
  return (STATIC_PAGE_PATHS as readonly string[]).includes(path);
}

/** What a route module's `handle` may say about the page (read by app/root.tsx). */
export interface PageHandle {
  /** false: a document page, served without React on the client (ADR 0083). */
  hydrate?: boolean;
}

/**
 * `handle` of a document page: the server renders it, and the browser gets the HTML, the CSS
 * and one small script (app/enhance) instead of React, React DOM and React Router (ADR 0083).
 */
export const documentPage = { hydrate: false } as const satisfies PageHandle;

/**
 * `clientMiddleware` of a document page. A React page (the catalog, the contact page) that
 * links to one would otherwise render it on the client, where its script-free widgets (menu,
 * dialog, tooltips) are not wired: instead the browser loads it as a document. (Middleware,
 * not a clientLoader: a clientLoader on a route without a server loader would make React
 * Router server-render the route's fallback instead of the page.)
 */
export function loadAsDocument({ request }: { request: Request }): Promise<never> {
  window.location.assign(request.url);
  // Never settles: the browser is leaving this page.
  return new Promise<never>(() => {});
}

export function hydratesPage(handles: readonly unknown[]): boolean {
  return handles.every((handle) => (handle as PageHandle | undefined)?.hydrate !== false);
}
