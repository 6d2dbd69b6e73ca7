import { catalogHref, defaultCatalogState, parseCatalogState } from "./url-state.ts";
import type { CatalogType } from "./types.ts";

/**
 * Item pages (issue #11, DESIGN.md §3b): `/catalog/albums/{id}`, `/catalog/singles/{id}` and
 * `/catalog/films/{film_id}`, each with an optional trailing `/{slug}`. Albums and singles use
 * the ids of the catalog's `?item=`. Any slug (or none) answers the page; its canonical link
 * names the right one (ADR 0096).
 */
export type ItemPageKind = "albums" | "singles" | "films";

export const ITEM_PAGE_KINDS: readonly ItemPageKind[] = ["albums", "singles", "films"];

/** The catalog view an item belongs to (the page's default "back" link and breadcrumb). */
export const CATALOG_TYPE_OF: Record<ItemPageKind, CatalogType> = { albums: "music", singles: "singles", films: "film" };

export function parseItemPageKind(value: string | undefined): ItemPageKind | null {
  return (ITEM_PAGE_KINDS as readonly string[]).includes(value ?? "") ? (value as ItemPageKind) : null;
}

/** Longest slug: enough to read, short enough for a URL someone pastes. */
const MAX_SLUG_LENGTH = 80;

/**
 * A URL-safe slug of a name: lower case, accents dropped ("Café Noir" → "cafe-noir"), every
 * run of other characters one "-". Letters of other scripts are kept (a Korean title keeps its
 * words; the browser shows them, the link percent-encodes them); a name with no letter or
 * digit at all has an empty slug, and its page has none.
 */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    // accents of Latin, Greek and Cyrillic letters only: a kana's voicing mark is part of the word
    .replace(/([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, "$1")
    // composed again (NFKD split Hangul syllables and kana apart)
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  const cut = slug.slice(0, MAX_SLUG_LENGTH);
  const dash = cut.lastIndexOf("-");
  return dash > MAX_SLUG_LENGTH / 2 ? cut.slice(0, dash) : cut;
}

/** The canonical path of an item page: `/catalog/albums/{id}/{slug}` (no slug when it is empty). */
export function itemPagePath(kind: ItemPageKind, id: string, name: string): string {
  const slug = slugify(name);
  return `/catalog/${kind}/${encodeURIComponent(id)}${slug ? `/${encodeURIComponent(slug)}` : ""}`;
}

/** An item page link that remembers the catalog view it was opened from (`?from=`). */
export function itemPageHref(kind: ItemPageKind, id: string, name: string, from?: string): string {
  const path = itemPagePath(kind, id, name);
  return from ? `${path}?from=${encodeURIComponent(from)}` : path;
}

/**
 * The "back to the catalog" link of an item page, from its `?from=`: only a same-site
 * `/catalog` URL, parsed and written again through url-state.ts (so no other host, path or
 * parameter can ride along), without an open sheet. Anything else gives the item's own view.
 */
export function catalogReturnHref(from: string | null | undefined, kind: ItemPageKind): string {
  const fallback = catalogHref(defaultCatalogState(CATALOG_TYPE_OF[kind]));
  if (!from || !from.startsWith("/catalog") || from.startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(from, "http://site.invalid");
  } catch {
    return fallback;
  }
  if (url.origin !== "http://site.invalid" || url.pathname !== "/catalog") return fallback;
  return catalogHref({ ...parseCatalogState(url.searchParams), item: "" });
}
