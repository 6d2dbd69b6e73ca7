import type { MetaDescriptor } from "react-router";
import { site } from "~/content/site";

export interface PageSeo {
  title: string;
  description: string;
  /** Path of the page, e.g. "/mission" (used for the canonical link and og:url). */
  path: string;
  image?: string;
  type?: "website" | "article" | "music.album" | "video.movie";
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
