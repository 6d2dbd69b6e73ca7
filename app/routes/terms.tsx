import type { Route } from "./+types/terms";
import { termsPage, termsSections } from "~/content/terms";
import { LegalDocument } from "~/features/legal/legal-document";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// Issue #16: the terms of use, a document page like the accessibility statement (ADR 0083).
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({ title: termsPage.title, description: termsPage.metaDescription, path: "/terms", type: "article" }, matches);

export default function TermsPage() {
  return (
    <LegalDocument
      eyebrow="Legal"
      title={termsPage.title}
      subtitle={termsPage.subtitle}
      lastChanged={termsPage.lastChanged}
      sections={termsSections}
    />
  );
}
