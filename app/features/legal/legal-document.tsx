import { Fragment, type ReactNode } from "react";
import { contactFields, licensingFields, type LeadFieldSpec } from "~/content/contact";
import type { LegalSection } from "~/content/privacy";
import { site } from "~/content/site";
import { PageHeader, StorySection } from "~/features/story";
import { durationInWords, type PrivacyFacts } from "~/lib/legal/facts";

const LINK = "font-semibold text-[#ffb38f] underline underline-offset-4";

/** A form's field labels, in the form's order ("Full Name, Email Address, …"): the policy lists what the form asks. */
function fieldLabels(rows: readonly (readonly LeadFieldSpec[])[]): string {
  return rows
    .flat()
    .map((f) => f.label)
    .join(", ");
}

/** Every value the legal pages name: the operator's facts (site.ts) and the server's figures. */
function legalValues(facts: PrivacyFacts | undefined): Record<string, ReactNode> {
  const { legal } = site;
  const mail = (address: string) => (
    <a href={`mailto:${address}`} className={LINK}>
      {address}
    </a>
  );
  return {
    company: site.companyName,
    legalName: legal.legalName,
    postalAddress: legal.postalAddress,
    dataEmail: mail(legal.dataRequestsEmail),
    contactEmail: mail(site.contactEmail),
    authority: (
      <a href={legal.supervisoryAuthority.url} className={LINK}>
        {legal.supervisoryAuthority.name}
      </a>
    ),
    provider: legal.mailProvider.name,
    providerLocation: legal.mailProvider.location,
    safeguard: legal.mailProvider.safeguard,
    host: legal.hostingProvider.name,
    hostLocation: legal.hostingProvider.location,
    logDays: legal.serverLogDays,
    mailboxRetention: legal.mailboxRetention,
    privacyPolicy: (
      <a href="/privacy" className={LINK}>
        privacy policy
      </a>
    ),
    governingLaw: legal.governingLaw,
    courts: legal.courts,
    contactFields: fieldLabels(contactFields),
    licensingFields: fieldLabels(licensingFields),
    ...(facts
      ? {
          retentionDays: facts.retentionDays,
          rateLimit: facts.rateLimit,
          rateWindow: durationInWords(facts.rateWindowSeconds),
          referenceTtlDays: facts.reference.ttlDays,
          referenceRateLimit: facts.reference.rateLimit,
          referenceRefusedRateLimit: facts.reference.refusedRateLimit,
          referenceRateWindow: durationInWords(facts.reference.rateWindowSeconds),
        }
      : {}),
  };
}

/** A template with its `{name}` placeholders replaced by text or links. */
function Filled({ template, values }: { template: string; values: Record<string, ReactNode> }) {
  const parts = template.split(/\{(\w+)\}/);
  return parts.map((part, i) =>
    i % 2 === 0 ? part : <Fragment key={i}>{part in values ? values[part] : `{${part}}`}</Fragment>,
  );
}

/**
 * The privacy policy and the terms of use (issue #16): document pages like the accessibility
 * statement (ADR 0083), their copy in app/content/privacy.ts and terms.ts, the operator's facts
 * in app/content/site.ts.
 */
export function LegalDocument({
  eyebrow,
  title,
  subtitle,
  lastChanged,
  sections,
  facts,
}: {
  eyebrow: string;
  title: string;
  subtitle: string;
  lastChanged: string;
  sections: readonly LegalSection[];
  facts?: PrivacyFacts;
}) {
  const values = legalValues(facts);
  const shown = sections;
  return (
    <>
      <PageHeader eyebrow={eyebrow} title={title} subtitle={subtitle}>
        <p className="mt-4 text-sm text-muted">Last changed on {lastChanged}.</p>
      </PageHeader>

      <div className="pb-12 sm:pb-20">
        <nav aria-label="On this page" className="mx-auto max-w-3xl px-5 sm:px-8">
          <ol className="card flex flex-col gap-1.5 p-5 text-[0.9375rem] sm:grid sm:grid-cols-2 sm:gap-x-6 sm:p-6">
            {shown.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-muted underline-offset-4 hover:text-fg hover:underline">
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        {shown.map((section) => (
          <StorySection key={section.id} id={section.id} title={section.title} className="max-w-3xl scroll-mt-24 py-8 sm:py-10">
            <div className="flex flex-col gap-4 text-[1.0625rem] leading-relaxed text-muted">
              {section.paragraphs.map((p) => (
                <p key={p}>
                  <Filled template={p} values={values} />
                </p>
              ))}
              {section.points ? (
                <ul className="flex flex-col gap-3">
                  {section.points.map((point) => (
                    <li key={point.title} className="card px-5 py-4">
                      <h3 className="text-base font-semibold text-fg">
                        <Filled template={point.title} values={values} />
                      </h3>
                      <p className="mt-1.5">
                        <Filled template={point.body} values={values} />
                      </p>
                    </li>
                  ))}
                </ul>
              ) : null}
              {section.after?.map((p) => (
                <p key={p}>
                  <Filled template={p} values={values} />
                </p>
              ))}
            </div>
          </StorySection>
        ))}

        <p className="mx-auto max-w-3xl px-5 pt-4 text-sm text-muted sm:px-8">
          This page was last changed on {lastChanged}.
        </p>
      </div>
    </>
  );
}
