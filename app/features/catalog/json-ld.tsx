import { useNonce } from "~/lib/nonce";
import type { CatalogCardData } from "~/lib/catalog/cards";

/** JSON for a <script> element: "<" is escaped so "</script>" can never close it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** schema.org ItemList of the cards on this page (MusicAlbum, Movie, MusicRecording). */
export function catalogItemList(items: CatalogCardData[], origin: string, pageUrl: string, itemHref: (id: string) => string) {
  const abs = (path: string) => (path.startsWith("/") ? origin + path : path);
  const elements = items.flatMap((card, i) => {
    const position = i + 1;
    switch (card.kind) {
      case "album":
        return [{ "@type": "ListItem", position, item: { "@type": "MusicAlbum", name: card.name, url: abs(itemHref(card.id)), genre: card.genre || undefined, byArtist: { "@type": "MusicGroup", name: card.artist }, image: card.image ? abs(card.image.src) : undefined } }];
      case "single":
        return [{ "@type": "ListItem", position, item: { "@type": "MusicRecording", name: card.title, url: abs(itemHref(card.id)), genre: card.genre || undefined, byArtist: { "@type": "MusicGroup", name: card.artist }, datePublished: card.releaseDate || undefined, image: card.image ? abs(card.image.src) : undefined } }];
      case "film":
        return [{ "@type": "ListItem", position, item: { "@type": "Movie", name: card.title, image: card.image ? abs(card.image.src) : undefined } }];
      default:
        return [];
    }
  });
  return { "@context": "https://schema.org", "@type": "ItemList", url: pageUrl, numberOfItems: elements.length, itemListElement: elements };
}

export function JsonLd({ data }: { data: unknown }) {
  const nonce = useNonce();
  return <script type="application/ld+json" nonce={nonce || undefined} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: jsonForScript(data) }} />;
}
