import { CircleAlert, CircleCheck, LoaderCircle, Send, ShieldCheck } from "lucide-react";
import { useRef, type ReactNode, type RefObject } from "react";
import { contactFields, contactForm, licensingFields, licensingForm, type LeadFieldSpec } from "~/content/contact";
import { formPrivacyNotice } from "~/content/privacy";
import { site } from "~/content/site";
import { cn } from "~/lib/cn";
import { fillTemplate } from "~/lib/legal/facts";
import { referenceText, type LeadActionResult } from "~/lib/contact/result";
import { HONEYPOT_FIELD, MAX_LENGTH, type FormKind, type FormValues } from "~/lib/contact/schemas";
import { ChoiceGroup, Field, NativeSelect } from "./field";
import { useLeadForm } from "./use-lead-form";

type LeadForm = ReturnType<typeof useLeadForm>;

interface FormProps {
  idempotencyKey: string;
  documentResult: LeadActionResult | undefined;
  /** LEAD_RETENTION_DAYS, which the privacy notice states (issue #16). */
  retentionDays: number;
}

/** The hidden parts every lead form posts: which form, the render's key, the honeypot. */
function HiddenFields({ kind, idempotencyKey }: { kind: FormKind; idempotencyKey: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={kind} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {/* Honeypot: off-screen and out of the tab order; people leave it empty, bots fill it. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={`${kind}-${HONEYPOT_FIELD}`}>Leave this field empty</label>
        <input id={`${kind}-${HONEYPOT_FIELD}`} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
    </>
  );
}

function FormStatus({ form }: { form: LeadForm }) {
  if (form.documentSuccess) {
    return (
      <div role="status" className="flex items-start gap-3 rounded-xl border border-[#2f6b4f] bg-[#0f2a1f] p-4 text-sm">
        <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-[#6ee7a8]" />
        <p>
          <strong className="block font-semibold text-fg">{form.documentSuccess.title}</strong>
          <span className="text-[#c9f2dc]">{form.documentSuccess.description}</span>
          <span className="mt-1 block font-semibold text-[#c9f2dc]">{referenceText(form.documentSuccess.reference)}</span>
        </p>
      </div>
    );
  }
  if (form.notice) {
    return (
      <div role="alert" className="flex items-start gap-3 rounded-xl border border-[#7a2d3b] bg-[#2a1016] p-4 text-sm">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-[#ff9aa8]" />
        <p>
          <strong className="block font-semibold text-fg">{form.notice.title}</strong>
          <span className="text-[#ffd6dc]">{form.notice.message}</span>
        </p>
      </div>
    );
  }
  return null;
}

/**
 * Issue #16 (GDPR Art. 13): who receives the message, why and on what basis, who processes it
 * for us, how long it is kept, and the full policy. Inside the form before Submit, so a screen
 * reader reaches it in reading order, and the form's description (aria-describedby), so it is
 * announced when focus enters the form. A plain link: /privacy is a document page (ADR 0083).
 */
function PrivacyNotice({ id, retentionDays }: { id: string; retentionDays: number }) {
  const text = fillTemplate(formPrivacyNotice.text, {
    company: site.companyName,
    provider: site.legal.mailProvider.name,
    retentionDays,
  });
  return (
    <p id={id} className="flex items-start gap-2.5 text-sm leading-relaxed text-muted">
      <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-[#ffb38f]" />
      <span>
        {text}{" "}
        <a href="/privacy" className="font-semibold text-[#ffb38f] underline underline-offset-4">
          {formPrivacyNotice.link}
        </a>
        .
      </span>
    </p>
  );
}

function SubmitButton({ submitting, label, busyLabel }: { submitting: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="btn-primary w-full sm:w-auto" disabled={submitting}>
      {submitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Send aria-hidden="true" className="size-4" />}
      {submitting ? busyLabel : label}
    </button>
  );
}

function FormShell({
  form,
  formRef,
  kind,
  action,
  title,
  description,
  idempotencyKey,
  retentionDays,
  children,
  submit,
}: {
  form: LeadForm;
  formRef: RefObject<HTMLFormElement | null>;
  kind: FormKind;
  action: string;
  title: string;
  description: string;
  idempotencyKey: string;
  retentionDays: number;
  children: ReactNode;
  submit: ReactNode;
}) {
  const titleId = `${kind}-form-title`;
  const noticeId = `${kind}-privacy-notice`;
  return (
    <section aria-labelledby={titleId} className="card relative p-6 sm:p-8">
      <h2 id={titleId} className="text-2xl font-bold tracking-tight">
        {title}
      </h2>
      <p className="mt-1.5 text-sm text-muted">{description}</p>
      <form.fetcher.Form
        key={form.generation}
        ref={formRef}
        method="post"
        action={action}
        noValidate
        aria-labelledby={titleId}
        aria-describedby={noticeId}
        onSubmit={form.onSubmit}
        className="mt-6 flex flex-col gap-5"
     >
        <FormStatus form={form} />
        <HiddenFields kind={kind} idempotencyKey={idempotencyKey} />
        {children}
        <PrivacyNotice id={noticeId} retentionDays={retentionDays} />
        <div>{submit}</div>
      </form.fetcher.Form>
    </section>
  );
}

type FieldRow = readonly LeadFieldSpec[];

const ROW_COLUMNS = ["", "", "sm:grid-cols-2", "sm:grid-cols-3"];

/** One field of app/content/contact.ts, with its label, control and message. */
function LeadField({ kind, spec, form, values }: { kind: FormKind; spec: LeadFieldSpec; form: LeadForm; values: FormValues }) {
  const id = `${kind}-${spec.name}`;
  const error = form.errors[spec.name];
  const value = values[spec.name];
  const common = {
    name: spec.name,
    autoFocus: form.autoFocusField === spec.name,
    required: spec.required,
    ...form.fieldHandlers,
  };
  if (spec.control === "checkboxes") {
    return <ChoiceGroup id={id} spec={spec} error={error} chosen={Array.isArray(value) ? value : []} common={common} />;
  }
  const text = typeof value === "string" ? value : "";
  const maxLength = MAX_LENGTH[spec.name as keyof typeof MAX_LENGTH];
  return (
    <Field id={id} label={spec.label} error={error}>
      {(c) =>
        spec.control === "select" ? (
          <NativeSelect {...c} {...common} defaultValue={text}>
            <option value="">{spec.prompt}</option>
            {spec.options?.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
        ) : spec.control === "textarea" ? (
          <textarea {...c} {...common} defaultValue={text} rows={spec.rows} maxLength={maxLength} placeholder={spec.placeholder} />
        ) : (
          <input
            {...c}
            {...common}
            defaultValue={text}
            type={spec.control}
            autoComplete={spec.autoComplete}
            maxLength={maxLength}
            placeholder={spec.placeholder}
          />
        )
      }
    </Field>
  );
}

/** Every field of one form, row by row, as app/content/contact.ts lists them. */
function LeadFields({ kind, rows, form, values }: { kind: FormKind; rows: readonly FieldRow[]; form: LeadForm; values: FormValues }) {
  return rows.map((row) =>
    row.length === 1 ? (
      <LeadField key={row[0].name} kind={kind} spec={row[0]} form={form} values={values} />
    ) : (
      <div key={row.map((f) => f.name).join("+")} className={cn("grid gap-5", ROW_COLUMNS[row.length])}>
        {row.map((spec) => (
          <LeadField key={spec.name} kind={kind} spec={spec} form={form} values={values} />
        ))}
      </div>
    ),
  );
}

/** product-rules §2: "General Contact" — form "Send Us a Message". */
export function ContactMessageForm({ idempotencyKey, documentResult, retentionDays }: FormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const form = useLeadForm("contact", documentResult, formRef);
  return (
    <FormShell
      form={form}
      formRef={formRef}
      kind="contact"
      action="/contact"
      title={contactForm.title}
      description={contactForm.description}
      idempotencyKey={idempotencyKey}
      retentionDays={retentionDays}
      submit={<SubmitButton submitting={form.submitting} label={contactForm.submit} busyLabel={contactForm.submitting} />}
   >
      <LeadFields kind="contact" rows={contactFields} form={form} values={form.values ?? {}} />
    </FormShell>
  );
}

/** product-rules §2: "Sync Licensing" — form "Sync Licensing Inquiry". */
export function LicensingRequestForm({ idempotencyKey, documentResult, retentionDays, tracks }: FormProps & { tracks: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const form = useLeadForm("licensing", documentResult, formRef);
  // The catalog links here with ?tracks=…; after a reset the field starts empty.
  const values = form.values ?? (form.generation === 0 ? { tracks } : {});
  return (
    <FormShell
      form={form}
      formRef={formRef}
      kind="licensing"
      action="/contact?tab=licensing"
      title={licensingForm.title}
      description={licensingForm.description}
      idempotencyKey={idempotencyKey}
      retentionDays={retentionDays}
      submit={<SubmitButton submitting={form.submitting} label={licensingForm.submit} busyLabel={licensingForm.submitting} />}
   >
      <LeadFields kind="licensing" rows={licensingFields} form={form} values={values} />
    </FormShell>
  );
}
