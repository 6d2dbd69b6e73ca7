import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/contact";
import { services, requestInfo } from "~/.server/context";
import { contactPage, rateLimited, storeFailure } from "~/content/contact";
import { site } from "~/content/site";
import { ContactCards } from "~/features/contact/contact-cards";
import { ContactTabs } from "~/features/contact/contact-tabs";
import type { LeadActionResult } from "~/lib/contact/result";
import { MAX_LENGTH, type FormKind } from "~/lib/contact/schemas";
import { parseSubmission } from "~/lib/contact/submission";
import { seo } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({ title: "Contact", description: contactPage.metaDescription, path: "/contact" }, matches);

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const tab: FormKind = url.searchParams.get("tab") === "licensing" ? "licensing" : "contact";
  return data(
    {
      tab,
      // The catalog links here with &tracks=… (product-rules §2, issue #4).
      tracks: (url.searchParams.get("tracks") ?? "").slice(0, MAX_LENGTH.tracks),
      // A fresh idempotency key per render and form: a double submit stores one lead.
      keys: { contact: crypto.randomUUID(), licensing: crypto.randomUUID() },
      // Issue #16: each form's privacy notice states how long a message is kept.
      retentionDays: services(context).config.LEAD_RETENTION_DAYS,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const h = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) h.set("Retry-After", retryAfter);
  return h;
}

/** Switching tabs changes only ?tab: no need to ask the server again (and renew the keys). */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod) return defaultShouldRevalidate;
  const strip = (u: URL) => {
    const p = new URLSearchParams(u.search);
    p.delete("tab");
    return `${u.pathname}?${p}`;
  };
  return strip(currentUrl) !== strip(nextUrl) && defaultShouldRevalidate;
}

const reply = (result: LeadActionResult, status: number, headers?: HeadersInit) => data(result, { status, headers });

export async function action({ request, context }: Route.ActionArgs) {
  const { leads } = services(context);
  const { ip, log } = requestInfo(context);

  // The body was read and bounded (BODY_LIMIT_BYTES, 413 beyond it) by the request gate
  // before this action runs (server/request-guard.ts, ADR 0072).
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    return reply(
      { form: "contact", status: "refused", title: "Form not received", message: "The form could not be read. Please reload the page and try again.", reply: {} },
      400,
    );
  }

  // The same schema and the same Conform parse as the form in the browser (ADR 0109).
  const parsed = parseSubmission(formData);
  if (parsed.outcome === "invalid") {
    return reply({ form: parsed.form, status: "invalid", reply: parsed.reply }, 400);
  }
  if (parsed.outcome === "refused") {
    log.warn({ reason: parsed.reason, form: parsed.form }, "contact: submission refused");
    return reply({ form: parsed.form, status: "refused", title: "Submission not accepted", message: parsed.reason, reply: parsed.reply }, 400);
  }

  const { lead, idempotencyKey } = parsed;
  const outcome = await leads.submit(lead, { ip, idempotencyKey });
  switch (outcome.status) {
    case "accepted":
      return reply({ form: lead.kind, status: "success", reference: outcome.reference, reply: parsed.reply({ stored: true }) }, 200);
    case "rate-limited": {
      const minutes = Math.max(1, Math.ceil(outcome.retryAfterSeconds / 60));
      return reply(
        {
          form: lead.kind,
          status: "rate-limited",
          title: rateLimited.title,
          message: rateLimited.description.replace("{minutes}", String(minutes)).replace("{email}", site.contactEmail),
          reply: parsed.reply({ stored: false }),
        },
        429,
        { "Retry-After": String(outcome.retryAfterSeconds) },
      );
    }
    default:
      return reply(
        {
          form: lead.kind,
          status: "unavailable",
          title: storeFailure.title,
          message: storeFailure.description.replace("{email}", site.contactEmail),
          reply: parsed.reply({ stored: false }),
        },
        503,
        { "Retry-After": String(outcome.retryAfterSeconds) },
      );
  }
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const tab = actionData?.form ?? loaderData.tab;
  return (
    <>
      <header className="relative mx-auto max-w-6xl px-5 pt-14 pb-10 text-center sm:px-8 sm:pt-20 sm:pb-12">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 -z-10 mx-auto h-64 max-w-3xl rounded-full bg-[radial-gradient(closest-side,rgb(255_122_69/0.2),transparent)] blur-2xl"
        />
        <h1 className="page-title text-balance">
          <span className="text-gradient">{contactPage.title}</span>
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-muted">{contactPage.intro}</p>
      </header>

      <section aria-label="Ways to reach us" className="mx-auto max-w-6xl px-5 pb-12 sm:px-8">
        <ContactCards />
      </section>

      <section aria-label="Contact forms" className="mx-auto max-w-4xl px-5 pb-20 sm:px-8">
        <ContactTabs tab={tab} tracks={loaderData.tracks} keys={loaderData.keys} documentResult={actionData} retentionDays={loaderData.retentionDays} />
      </section>
    </>
  );
}
