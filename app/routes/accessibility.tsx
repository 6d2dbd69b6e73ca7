import type { Route } from "./+types/accessibility";
import { accessibilityPage, statementSections } from "~/content/accessibility";
import { site } from "~/content/site";
import { PageHeader, StorySection } from "~/features/story/page-header";
import { mailtoHref } from "~/lib/mailto";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// Issue #11: the accessibility statement, a document page like the company-story pages
// (ADR 0083: served without React on the client).
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({ title: accessibilityPage.title, description: accessibilityPage.metaDescription, path: "/accessibility", type: "article" }, matches);

export default function AccessibilityPage() {
  const { report } = accessibilityPage;
  const [before, after] = report.body.split("{email}");
  return (
    <>
      <PageHeader eyebrow="Accessibility" title={accessibilityPage.title} subtitle={accessibilityPage.subtitle} />

      <div className="pb-12 sm:pb-20">
        {statementSections.map((section) => (
          <StorySection key={section.id} id={section.id} title={section.title} className="max-w-3xl py-8 sm:py-10">
            <div className="flex flex-col gap-4 text-[1.0625rem] leading-relaxed text-muted">
              {section.paragraphs.map((p) => (
                <p key={p}>{p}</p>
              ))}
              {section.points ? (
                <ul className="flex flex-col gap-4">
                  {section.points.map((point) => (
                    <li key={point.title} className="card p-5 sm:p-6">
                      <h3 className="text-lg font-semibold text-fg">{point.title}</h3>
                      <p className="mt-2">{point.body}</p>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          </StorySection>
        ))}

        <StorySection id="report" title={report.title} className="max-w-3xl py-8 sm:py-10">
          <div className="flex flex-col gap-4 text-[1.0625rem] leading-relaxed text-muted">
            <p>
              {before}
              <a href={mailtoHref(site.contactEmail, { subject: report.mailSubject })} className="font-semibold text-[#ffb38f] underline underline-offset-4">
                {site.contactEmail}
              </a>
              {after}
            </p>
            <p>
              <a href="/contact" className="font-semibold text-[#ffb38f] underline underline-offset-4">
                {report.contactForm}
              </a>
            </p>
            <p className="text-sm">This statement was last reviewed on {accessibilityPage.reviewed}.</p>
          </div>
        </StorySection>
      </div>
    </>
  );
}
