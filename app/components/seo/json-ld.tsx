import { site } from "~/content/site";

export type JsonLdData = Record<string, unknown>;

/**
 * Serializes structured data for a `<script type="application/ld+json">` element. `<`, `>`
 * and `&` become \u escapes, so no value can close the script element ("</script>") or
 * open a comment; U+2028/2029 are escaped for old JavaScript parsers. JSON parsers read
 * the escapes back as the same characters.
 */
export function serializeJsonLd(data: JsonLdData): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Structured data for search engines. A data block, not a script: the CSP's script-src does
 * not apply to it, so it needs no nonce.
 */
export function JsonLd({ data }: { data: JsonLdData }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }} />;
}

/** schema.org Organization for the home page, from app/content/site.ts. */
export function organizationJsonLd(siteUrl: string): JsonLdData {
  const origin = siteUrl.replace(/\/+$/, "");
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": `${origin}/#organization`,
    name: site.companyName,
    url: `${origin}/`,
    logo: `${origin}/icons/icon-512.png`,
    image: `${origin}/og-image.png`,
    description: site.tagline,
    email: site.contactEmail,
    founder: { "@type": "Person", name: site.founderName },
    address: { "@type": "PostalAddress", ...site.address },
    contactPoint: [{ "@type": "ContactPoint", contactType: "customer support", email: site.contactEmail }],
    sameAs: site.social.map((s) => s.href),
  };
}
