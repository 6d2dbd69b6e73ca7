/**
 * Builds a `mailto:` URL. Query values are encoded with encodeURIComponent (RFC 6068):
 * spaces become %20, not "+", which mail clients would show literally in the subject.
 */
export function mailtoHref(address: string, fields: { subject?: string; body?: string; cc?: string } = {}): string {
  if (!/^[^\s@?&]+@[^\s@?&]+$/.test(address)) {
    throw new Error(`mailtoHref: not an e-mail address: ${JSON.stringify(address)}`);
  }
  const query = Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "")
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join("&");
  return `mailto:${address}${query ? `?${query}` : ""}`;
}
