import { CircleAlert, CircleCheck, LoaderCircle, Send } from "lucide-react";
import { useRef, type ReactNode, type RefObject } from "react";
import { budgets, contactForm, licensingForm, projectTypes, timelines } from "~/content/contact";
import type { LeadActionResult } from "~/lib/contact/result";
import { HONEYPOT_FIELD, MAX_LENGTH, type FormKind } from "~/lib/contact/schemas";
import { Field, NativeSelect } from "./field";
import { useLeadForm } from "./use-lead-form";

type LeadForm = ReturnType<typeof useLeadForm>;

interface FormProps {
  idempotencyKey: string;
  documentResult: LeadActionResult | undefined;
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
  children: ReactNode;
  submit: ReactNode;
}) {
  const titleId = `${kind}-form-title`;
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
        onSubmit={form.onSubmit}
        className="mt-6 flex flex-col gap-5"
     >
        <FormStatus form={form} />
        <HiddenFields kind={kind} idempotencyKey={idempotencyKey} />
        {children}
        <div>{submit}</div>
      </form.fetcher.Form>
    </section>
  );
}

/** Props shared by every field: name, the value to show (kept or pre-filled), focus, handlers. */
function fieldProps(form: LeadForm, values: Record<string, string | undefined>) {
  return (name: string) => ({
    name,
    defaultValue: values[name] ?? "",
    autoFocus: form.autoFocusField === name,
    ...form.fieldHandlers,
  });
}

/** Full Name and Email Address, the first row of both forms. */
function NameAndEmail({
  idPrefix,
  form,
  common,
  labels,
  placeholders,
}: {
  idPrefix: string;
  form: LeadForm;
  common: ReturnType<typeof fieldProps>;
  labels: { name: string; email: string };
  placeholders: { name: string; email: string };
}) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field id={`${idPrefix}-name`} label={labels.name} error={form.errors.name}>
        {(c) => <input {...c} {...common("name")} type="text" autoComplete="name" required maxLength={MAX_LENGTH.name} placeholder={placeholders.name} />}
      </Field>
      <Field id={`${idPrefix}-email`} label={labels.email} error={form.errors.email}>
        {(c) => <input {...c} {...common("email")} type="email" autoComplete="email" required maxLength={MAX_LENGTH.email} placeholder={placeholders.email} />}
      </Field>
    </div>
  );
}

/** spec §2: "General Contact" — form "Send Us a Message". */
export function ContactMessageForm({ idempotencyKey, documentResult }: FormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const form = useLeadForm("contact", documentResult, formRef);
  const { labels, placeholders } = contactForm;
  const common = fieldProps(form, form.values ?? {});
  return (
    <FormShell
      form={form}
      formRef={formRef}
      kind="contact"
      action="/contact"
      title={contactForm.title}
      description={contactForm.description}
      idempotencyKey={idempotencyKey}
      submit={<SubmitButton submitting={form.submitting} label={contactForm.submit} busyLabel={contactForm.submitting} />}
   >
      <NameAndEmail idPrefix="contact" form={form} common={common} labels={labels} placeholders={placeholders} />
      <Field id="contact-subject" label={labels.subject} error={form.errors.subject}>
        {(c) => <input {...c} {...common("subject")} type="text" required maxLength={MAX_LENGTH.subject} placeholder={placeholders.subject} />}
      </Field>
      <Field id="contact-message" label={labels.message} error={form.errors.message}>
        {(c) => <textarea {...c} {...common("message")} rows={6} required maxLength={MAX_LENGTH.message} placeholder={placeholders.message} />}
      </Field>
    </FormShell>
  );
}

/** spec §2: "Sync Licensing" — form "Sync Licensing Inquiry". */
export function LicensingRequestForm({ idempotencyKey, documentResult, tracks }: FormProps & { tracks: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const form = useLeadForm("licensing", documentResult, formRef);
  const { labels, placeholders, selectPrompts } = licensingForm;
  // The catalog links here with ?tracks=…; after a reset the field starts empty.
  const common = fieldProps(form, form.values ?? (form.generation === 0 ? { tracks } : {}));
  return (
    <FormShell
      form={form}
      formRef={formRef}
      kind="licensing"
      action="/contact?tab=licensing"
      title={licensingForm.title}
      description={licensingForm.description}
      idempotencyKey={idempotencyKey}
      submit={<SubmitButton submitting={form.submitting} label={licensingForm.submit} busyLabel={licensingForm.submitting} />}
   >
      <NameAndEmail idPrefix="licensing" form={form} common={common} labels={labels} placeholders={placeholders} />
      <Field id="licensing-company" label={labels.company} error={form.errors.company}>
        {(c) => <input {...c} {...common("company")} type="text" autoComplete="organization" required maxLength={MAX_LENGTH.company} placeholder={placeholders.company} />}
      </Field>
      <div className="grid gap-5 sm:grid-cols-3">
        <Field id="licensing-projectType" label={labels.projectType} error={form.errors.projectType}>
          {(c) => (
            <NativeSelect {...c} {...common("projectType")}>
              <option value="">{selectPrompts.projectType}</option>
              {projectTypes.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <Field id="licensing-budget" label={labels.budget} error={form.errors.budget}>
          {(c) => (
            <NativeSelect {...c} {...common("budget")}>
              <option value="">{selectPrompts.budget}</option>
              {budgets.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <Field id="licensing-timeline" label={labels.timeline} error={form.errors.timeline}>
          {(c) => (
            <NativeSelect {...c} {...common("timeline")}>
              <option value="">{selectPrompts.timeline}</option>
              {timelines.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      </div>
      <Field id="licensing-description" label={labels.description} error={form.errors.description}>
        {(c) => <textarea {...c} {...common("description")} rows={5} required maxLength={MAX_LENGTH.description} placeholder={placeholders.description} />}
      </Field>
      <Field id="licensing-tracks" label={labels.tracks} error={form.errors.tracks}>
        {(c) => <textarea {...c} {...common("tracks")} rows={2} maxLength={MAX_LENGTH.tracks} placeholder={placeholders.tracks} />}
      </Field>
    </FormShell>
  );
}
