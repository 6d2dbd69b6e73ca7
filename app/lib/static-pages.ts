/**
 * Pages whose HTML depends on nothing but the code and the content in app/content.
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
] as const;

export const DYNAMIC_PAGE_PATHS = ["/catalog", "/contact"] as const;

/** Every page of spec §2 with a fixed path: the sitemap, the SEO tests and the Lighthouse bench. */
export const SITE_PAGE_PATHS: readonly string[] = [...STATIC_PAGE_PATHS, ...DYNAMIC_PAGE_PATHS];

export function isStaticPage(path: string): boolean {
  return (STATIC_PAGE_PATHS as readonly string[]).includes(path);
}
