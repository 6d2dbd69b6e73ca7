import type { MetaDescriptor } from "react-router";
import { site } from "~/content/site";

export interface PageSeo {
  title: string;
  description: string;
  /** Path of the page, e.g. "/mission" (used for the canonical link and og:url). */
  path: string;
  image?: string;
  type?: "website" | "article" | "music.album" | "music.song" | "video.movie";
}

interface RootData {
  siteUrl: string;
}

/** Reads the public origin that the root loader exposes (SITE_URL). */
export function siteUrlFrom(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>): string {
  const root = matches.find((m) => m?.id === "root")?.loaderData as RootData | undefined;
  return root?.siteUrl ?? "";
}

/** Title, description, canonical link and Open Graph / Twitter tags for one page. */
export function seo(page: PageSeo, matches: Parameters<typeof siteUrlFrom>[0]): MetaDescriptor[] {
  const origin = siteUrlFrom(matches);
  const url = origin + page.path;
  const title = page.path === "/" ? page.title : `${page.title} | ${site.companyName}`;
  const image = origin + (page.image ?? "/og-image.png");
  return [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:site_name", content: site.companyName },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
  ];
}

/**
 * Tags of the 404 page (product-rules §2): its own title, no canonical link (an error page is not a page
 * to point canonical links at) and `noindex`. Shared by the catch-all route and the routes whose
 * URL names something unknown (an item page's id, issue #11).
 */
export function notFoundSeo(path: string, matches: Parameters<typeof siteUrlFrom>[0]): MetaDescriptor[] {
  return [
    ...seo({ title: "Page not found", description: "The page you were looking for does not exist.", path }, matches).filter(
      (tag) => !("tagName" in tag && tag.tagName === "link"),
    ),
    { name: "robots", content: "noindex" },
  ];
}
