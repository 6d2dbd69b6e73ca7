/**
 * product-rules §7 "Media": media load from a storage host as {host}/{url-encoded key}. MEDIA_URL serves
 * album, track and channel media and FILM_MEDIA_URL film images (default: /media, served from
 * DATA_DIR/media). A key that already is an absolute URL (some upstreams send full URLs) passes
 * through; an empty key stays empty, so the UI shows its placeholder.
 */
export function mediaUrl(key: string, base: string): string {
  if (!key) return "";
  if (/^https?:\/\//i.test(key)) return key;
  return `${base.replace(/\/+$/, "")}/${encodeURIComponent(key)}`;
}
