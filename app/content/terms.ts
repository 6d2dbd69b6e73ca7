import type { LegalSection } from "./privacy.ts";

/**
 * The terms of use at /terms (issue #16). Sample copy for a content-distribution company's
 * website: an operator reviews it with their counsel and replaces it. The facts it names (legal
 * name, address, governing law and courts) come from `site.legal` in app/content/site.ts.
 * Placeholders are filled by app/features/legal/legal-document.tsx.
 */
export const termsPage = {
  title: "Terms of use",
  subtitle: "The rules for using this website: browsing the catalog, listening to previews and sending us inquiries.",
  metaDescription:
    "The terms of use of the Northbeat Media website: use of the site, catalog content and previews, licensing inquiries, intellectual property, liability and governing law.",
  lastChanged: "24 November 2026",
} as const;

export const termsSections: readonly LegalSection[] = [
  {
    id: "about",
    title: "About these terms",
    paragraphs: [
      "This website is run by {legalName}, {postalAddress} (\u201cwe\u201d). By using it you accept these terms. If you do not accept them, please do not use the site.",
      "How we handle your data is explained in our privacy policy, which is not part of these terms.",
    ],
  },
  {
    id: "use",
    title: "Using the site",
    paragraphs: ["You may browse the site, listen to previews and send us inquiries for your own business or personal use. You may not:"],
    points: [
      { title: "Copy the catalog", body: "Download, scrape or republish the catalog, its artwork or its previews, by hand or with automated tools, except as a search engine indexing public pages." },
      { title: "Disrupt the site", body: "Overload it, probe it for weaknesses, get around its limits, or send forms automatically or in bulk." },
      { title: "Misuse the forms", body: "Send messages in someone else's name, with someone else's e-mail address, or with unlawful, misleading or abusive content." },
    ],
  },
  {
    id: "catalog",
    title: "Catalog content and previews",
    paragraphs: [
      "The catalog shows releases we distribute for artists, labels and filmmakers. We keep it up to date as well as we can, but titles, credits, genres, tempo and key figures, and availability can change or contain mistakes, and a release may be withdrawn at any time.",
      "Previews are short, lower-quality excerpts so you can judge whether a work suits you. Listening to a preview gives you no right to use the work in any way.",
    ],
  },
  {
    id: "licensing",
    title: "Licensing inquiries are not contracts",
    paragraphs: [
      "A licensing inquiry sent through this site is a request for information. It does not grant you any license, reserve a work for you, or oblige either of us to sign anything. Prices, media, territories and terms are agreed only in a written license signed by both parties, and only that license gives you the right to use a work.",
      "Until a license is signed, you may not use any work from the catalog in your project, even for a test, a pitch or a temporary edit, unless we confirm it in writing.",
    ],
  },
  {
    id: "ip",
    title: "Intellectual property",
    paragraphs: [
      "The music, films, artwork and texts in the catalog belong to their artists, labels and other rights holders. The site's design, texts, logos and software belong to us or our licensors. Nothing on the site grants you a license to any of it except as these terms say.",
      "If you believe something on the site infringes your rights, write to {contactEmail} with the page's address, the work concerned and your contact details; we will look into it promptly and remove what infringes.",
    ],
  },
  {
    id: "liability",
    title: "Liability",
    paragraphs: [
      "We provide the site as it is and as available. We do our best to keep it working and correct, but we do not promise that it will always be available, free of errors or suited to a particular purpose.",
      "To the extent the law allows, we are not liable for indirect or consequential loss, such as lost profits or lost data, arising from your use of the site. Nothing in these terms limits liability that cannot be limited by law, such as for death or personal injury caused by negligence, or for fraud, nor any rights you have as a consumer.",
    ],
  },
  {
    id: "links",
    title: "Links to other sites",
    paragraphs: [
      "The site links to other websites, such as social networks and partner platforms. We do not control them and are not responsible for their content or how they handle your data.",
    ],
  },
  {
    id: "law",
    title: "Governing law",
    paragraphs: [
      "These terms are governed by {governingLaw}, and disputes about them are settled by {courts}. If you use the site as a consumer, you also keep the protection of the mandatory law of the country where you live, and may bring a claim in its courts.",
    ],
  },
  {
    id: "changes",
    title: "Changes to these terms",
    paragraphs: [
      "We may change these terms, for example when the site gains a feature or the law changes. The version on this page, with the date below, is the one that applies; changes do not affect a license already signed.",
    ],
  },
  {
    id: "contact",
    title: "Contact",
    paragraphs: ["Questions about these terms: {contactEmail}, or by post to {legalName}, {postalAddress}."],
  },
];
