/**
 * CONTRACT between the catalog UI and the server's image endpoint (server/images.ts):
 * cards ask for a resized thumbnail of a media URL (as returned by CatalogService.mediaUrl);
 * the server fetches it (same-origin /media or the MEDIA_URL / FILM_MEDIA_URL hosts only),
 * resizes it and answers AVIF/WebP by the Accept header, with caching.
 */
export const THUMBNAIL_WIDTHS = [96, 160, 240, 320, 480, 640, 960] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

export function thumbnailUrl(src: string, width: ThumbnailWidth): string {
  return `/img?w=${width}&src=${encodeURIComponent(src)}`;
}

/** srcset over the allowed widths up to `max`. */
export function thumbnailSrcSet(src: string, max: ThumbnailWidth = 640): string {
  return THUMBNAIL_WIDTHS.filter((w) => w <= max)
    .map((w) => `${thumbnailUrl(src, w)} ${w}w`)
    .join(", ");
}
