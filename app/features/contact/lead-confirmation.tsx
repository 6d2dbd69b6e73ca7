import { CircleCheck } from "~/components/ui/icons/circle-check";
import { useEffect, useRef, type MouseEvent } from "react";
import { contactFields, contactForm, leadReceipt, licensingFields, licensingForm } from "~/content/contact";
import { site } from "~/content/site";
import { referenceTextParts } from "~/lib/contact/result";
import type { FormKind } from "~/lib/contact/schemas";

// What a sent lead leaves in the form's place (issue #41, ADR 0146), apart from the forms
// themselves (lead-forms.tsx), and the two forms' copy, fields and addresses both read.

/** Each form's copy, field rows and the address it posts to. */
export const forms = {
  contact: { copy: contactForm, rows: contactFields, action: "/contact" },
  licensing: { copy: licensingForm, rows: licensingFields, action: "/contact?tab=licensing" },
} as const;

/**
 * "Your reference: NB-000042" with the reference in an element of its own that never wraps
 * (issue #41: it broke into "NB-" and "000001"). `data-lead-reference` marks it for the tests.
 */
export function ReferenceLine({ reference, className }: { reference: string; className?: string }) {
  const { before, after } = referenceTextParts();
  return (
    <span className={className}>
      {before}
      <strong data-lead-reference="" className="font-semibold whitespace-nowrap">
        {reference}
      </strong>
      {after}
    </span>
  );
}

/** Where each form sits on /contact: the target of "License this …" links and of "Send another …". */
export const formAnchor = (kind: FormKind) => `${kind}-form`;

/**
 * "Send another" without JavaScript: a fresh page with an empty form (and a new idempotency key),
 * scrolled to the form. `new=1` is there only to differ from the URL the form posted to
 * (`/contact?tab=licensing`): a link that differs from the page's URL by its #fragment alone
 * only scrolls, and the confirmation would stay. The loader ignores it.
 */
function anotherHref(kind: FormKind): string {
  const [path, query = ""] = forms[kind].action.split("?");
  const params = new URLSearchParams(query);
  params.set("new", "1");
  return `${path}?${params}#${formAnchor(kind)}`;
}

/**
 * Issue #41: after a send, the form's place holds a lasting confirmation instead of the reset
 * form under a five-second toast: the spec's success title and text (product-rules §8), the
 * reference on one line, and a way to send another. The same markup answers a post without
 * JavaScript (the page comes back with it). `role="status"` names it for assistive technology;
 * its heading takes the focus when it appears (the Submit button that had it is gone), which
 * also scrolls it into view; without JavaScript, `autofocus` does both on the returned page
 * (React itself autofocuses only form controls, hence the effect). "Send another" is a link to
 * a fresh form (new idempotency key) that, with JavaScript, opens the empty form in place.
 */
export function LeadConfirmation({
  kind,
  reference,
  focus,
  onAnother,
}: {
  kind: FormKind;
  reference: string;
  /** false when the form comes back (the other tab was chosen and this one again): the focus stays on the tab */
  focus: boolean;
  onAnother: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const { copy } = forms[kind];
  const [beforeEmail, afterEmail = ""] = leadReceipt.quoteReference.split("{email}");
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <div role="status" className="mt-6 rounded-xl border border-[#2f6b4f] bg-[#0f2a1f] p-4 sm:p-6">
      <div className="flex items-start gap-2.5 sm:gap-4">
        <CircleCheck aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-[#6ee7a8]" />
        <h3 ref={heading} id={`${kind}-sent-title`} tabIndex={-1} autoFocus className="scroll-mt-28 text-xl font-bold tracking-tight text-fg focus:outline-none">
          {copy.success.title}
        </h3>
      </div>
      {/* On a phone the text takes the box's whole width, so "Your reference: NB-000042" fits one
          line at 390 px (issue #41; narrower, the reference moves whole to the next line); from
          sm it lines up with the heading, past the icon. */}
      <div className="mt-2 flex min-w-0 flex-col gap-2 sm:pl-10">
        <p className="text-[#c9f2dc]">{copy.success.description}</p>
        <p className="text-lg text-fg">
          <ReferenceLine reference={reference} />
        </p>
        <p className="text-sm text-[#c9f2dc]">
          {beforeEmail}
          <a
            href={`mailto:${site.contactEmail}?subject=${encodeURIComponent(reference)}`}
            className="font-semibold break-words text-fg underline underline-offset-4"
          >
            {site.contactEmail}
          </a>
          {afterEmail}
        </p>
        <p className="mt-2">
          <a href={anotherHref(kind)} onClick={onAnother} className="btn-secondary">
            {copy.sent.another}
          </a>
        </p>
      </div>
    </div>
  );
}

