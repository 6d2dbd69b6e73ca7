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

export function isStaticPage(path: string): boolean {
  return (STATIC_PAGE_PATHS as readonly string[]).includes(path);
}
