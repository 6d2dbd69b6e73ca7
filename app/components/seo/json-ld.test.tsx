import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { site } from "~/content/site";
import { JsonLd, organizationJsonLd, serializeJsonLd } from "./json-ld";

describe("serializeJsonLd", () => {
  it("cannot close the script element or open a comment, and round-trips through JSON.parse", () => {
    const data = { name: "</script><script>alert(1)</script>", note: "<!-- & -->", sep: "a\u2028b" };
    const text = serializeJsonLd(data);
    expect(text).not.toMatch(/<|>|&/);
    expect(text).not.toContain("\u2028");
    expect(JSON.parse(text)).toEqual(data);
  });
});

describe("JsonLd", () => {
  it("renders one application/ld+json script whose content parses back to the data", () => {
    const html = renderToStaticMarkup(<JsonLd data={{ "@type": "Thing", name: "A </script> B" }} />);
    const match = /^<script type="application\/ld\+json">(.*)<\/script>$/s.exec(html);
    expect(match).not.toBeNull();
    expect(JSON.parse(match![1]!)).toEqual({ "@type": "Thing", name: "A </script> B" });
  });
});

describe("organizationJsonLd", () => {
  it("describes the company from the site content with absolute URLs", () => {
    const org = organizationJsonLd("https://www.example.com/");
    expect(org).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Organization",
      name: site.companyName,
      url: "https://www.example.com/",
      logo: "https://www.example.com/icons/icon-512.png",
      email: site.contactEmail,
      founder: { "@type": "Person", name: site.founderName },
      address: { "@type": "PostalAddress", addressLocality: site.address.addressLocality },
    });
    expect(org.sameAs).toEqual(site.social.map((s) => s.href));
    expect(org.sameAs).toHaveLength(4);
  });
});
