import { ArrowRight } from "~/components/ui/icons/arrow-right";
import { Link } from "~/components/ui/link";
import type { AlbumCardData } from "~/lib/catalog/cards";
import { catalogHref, defaultCatalogState, withItem } from "~/lib/catalog/url-state";
import { AlbumCard } from "./cards";

/**
 * product-rules §2 Home: up to 6 featured albums are selected (and, in the spec, never shown). We show
 * them; each opens its sheet in the catalog.
 */
export function FeaturedAlbums({ albums }: { albums: AlbumCardData[] }) {
  if (!albums.length) return null;
  return (
    <section aria-labelledby="featured-title" className="mx-auto max-w-6xl px-5 pt-16 sm:px-8 sm:pt-24">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">From the catalog</p>
          <h2 id="featured-title" className="section-title mt-2">
            Featured albums
          </h2>
        </div>
        <Link to="/catalog" className="btn-secondary">
          Browse Catalog
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
      <ul className="mt-8 grid grid-cols-2 gap-3 sm:gap-5 md:grid-cols-3 lg:grid-cols-6">
        {albums.map((album) => (
          <li key={album.id} className="[&_h2]:text-[0.95rem]">
            <AlbumCard album={album} href={catalogHref(withItem(defaultCatalogState(), album.id))} headingLevel={3} />
          </li>
        ))}
      </ul>
    </section>
  );
}
