import type { Route } from "./+types/privacy";
import { services } from "~/.server/context";
import { privacyFacts } from "~/.server/privacy-facts";
import { privacyPage, privacySections } from "~/content/privacy";
import { LegalDocument } from "~/features/legal/legal-document";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// Issue #16: the privacy policy, a document page like the accessibility statement (ADR 0083:
// served without React on the client, cached by the server like the other static pages).
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({ title: privacyPage.title, description: privacyPage.metaDescription, path: "/privacy", type: "article" }, matches);

/** The retention and rate-limit figures the policy states, from the configuration. */
export function loader({ context }: Route.LoaderArgs) {
  return { facts: privacyFacts(services(context).config) };
}

export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  return (
    <LegalDocument
      eyebrow="Privacy"
      title={privacyPage.title}
      subtitle={privacyPage.subtitle}
      lastChanged={privacyPage.lastChanged}
      sections={privacySections}
      facts={loaderData.facts}
    />
  );
}
