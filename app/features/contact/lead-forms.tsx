import { useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { CircleAlert } from "~/components/ui/icons/circle-alert";
import { CircleCheck } from "~/components/ui/icons/circle-check";
import { LoaderCircle } from "~/components/ui/icons/loader-circle";
import { Send } from "~/components/ui/icons/send";
import { ShieldCheck } from "~/components/ui/icons/shield-check";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { contactFields, contactForm, licensingFields, licensingForm, type LeadFieldSpec } from "~/content/contact";
import { formPrivacyNotice } from "~/content/privacy";
import { site } from "~/content/site";
import { cn } from "~/lib/cn";
import { fillTemplate } from "~/lib/legal/facts";
import { referenceText, type LeadActionResult } from "~/lib/contact/result";
import { formFields, formSchemas, HONEYPOT_FIELD, MAX_LENGTH, type FormKind } from "~/lib/contact/schemas";
import { notify } from "~/lib/toast";
import { ChoiceGroup, Field, NativeSelect } from "./field";

/** What a lead form holds, as Conform reads it from the <form>: a string per field, a list for a checkbox group. */
type LeadValues = Record<string, string | string[]>;
type LeadFieldMeta = FieldMetadata<string | string[], LeadValues>;

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

/** A success answered to a document post (no JavaScript, so no toast), or a refusal. */
type Outcome =
  | { kind: "success"; title: string; description: string; reference: string }
  | { kind: "notice"; title: string; message: string };

/** The two boxes an answer shows: a success (a status) and a notice (an alert), each in its own colours. */
const STATUS_TONES = {
  success: { role: "status", Icon: CircleCheck, box: "border-[#2f6b4f] bg-[#0f2a1f]", icon: "text-[#6ee7a8]", text: "text-[#c9f2dc]" },
  notice: { role: "alert", Icon: CircleAlert, box: "border-[#7a2d3b] bg-[#2a1016]", icon: "text-[#ff9aa8]", text: "text-[#ffd6dc]" },
} as const;

function FormStatus({ outcome }: { outcome: Outcome | undefined }) {
  if (!outcome) return null;
  const tone = STATUS_TONES[outcome.kind];
  return (
    <div role={tone.role} className={`flex items-start gap-3 rounded-xl border ${tone.box} p-4 text-sm`}>
      <tone.Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${tone.icon}`} />
      <p>
        <strong className="block font-semibold text-fg">{outcome.title}</strong>
        <span className={tone.text}>{outcome.kind === "success" ? outcome.description : outcome.message}</span>
        {outcome.kind === "success" ? <span className={`mt-1 block font-semibold ${tone.text}`}>{referenceText(outcome.reference)}</span> : null}
      </p>
    </div>
  );
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

type FieldRow = readonly LeadFieldSpec[];

const ROW_COLUMNS = ["", "", "sm:grid-cols-2", "sm:grid-cols-3"];

/** One field of app/content/contact.ts, with its label, control and the first of its messages. */
function LeadField({ spec, field, autoFocus }: { spec: LeadFieldSpec; field: LeadFieldMeta; autoFocus: boolean }) {
  const error = field.errors?.[0];
  const common = { name: spec.name, autoFocus, required: spec.required };
  if (spec.control === "checkboxes") {
    return <ChoiceGroup id={field.id} spec={spec} error={error} chosen={field.defaultOptions ?? []} {...common} />;
  }
  const text = field.defaultValue ?? "";
  const maxLength = MAX_LENGTH[spec.name as keyof typeof MAX_LENGTH];
  return (
    <Field id={field.id} label={spec.label} error={error}>
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
function LeadFields({ rows, fields, autoFocusField }: { rows: readonly FieldRow[]; fields: Record<string, LeadFieldMeta>; autoFocusField?: string }) {
  const one = (spec: LeadFieldSpec) => <LeadField key={spec.name} spec={spec} field={fields[spec.name]!} autoFocus={autoFocusField === spec.name} />;
  return rows.map((row) =>
    row.length === 1 ? (
      one(row[0]!)
    ) : (
      <div key={row.map((f) => f.name).join("+")} className={cn("grid gap-5", ROW_COLUMNS[row.length])}>
        {row.map(one)}
      </div>
    ),
  );
}

const forms = {
  contact: { copy: contactForm, rows: contactFields, action: "/contact" },
  licensing: { copy: licensingForm, rows: licensingFields, action: "/contact?tab=licensing" },
} as const;

/**
 * Tells the visitor what became of a post made with JavaScript (product-rules §8): the success
 * toast with the reference, or the refusal's toast. Deviation 2: the visitor is told (the contact
 * address is in the message) and keeps the form. A form with field messages needs no toast:
 * Conform focuses its first invalid field.
 */
function useAnnouncement(kind: FormKind, data: LeadActionResult | undefined) {
  useEffect(() => {
    if (!data || data.status === "invalid") return;
    const { success } = forms[kind].copy;
    if (data.status === "success") notify.success(success.title, `${success.description} ${referenceText(data.reference)}`);
    else notify.error(data.title, data.message);
  }, [data, kind]);
}

/**
 * One lead form (ADR 0109). Progressive enhancement: the same <form> posts to the action
 * without JavaScript (the document comes back with `documentResult`); with JavaScript a fetcher
 * posts it. Conform checks it with the form's zod schema, the one the action parses it with.
 *
 * ADR 0093: no message appears before the first submit (product-rules §4: "the input is
 * validated" on submission). A message shown when a field loses focus moved the Submit button
 * between the mouse press and release, and the click was lost (issue #11). After the first
 * submit every change checks the form again, so a message comes and goes while typing, never
 * between a press and a release. A document post that came back invalid counts as a first
 * submit (Conform marks the fields it answered for as validated).
 */
function LeadForm({
  kind,
  idempotencyKey,
  documentResult,
  retentionDays,
  defaultValue,
}: FormProps & { kind: FormKind; defaultValue?: LeadValues }) {
  const { copy, rows, action } = forms[kind];
  const fetcher = useFetcher<LeadActionResult>({ key: `lead-${kind}` });
  const initial = documentResult?.form === kind ? documentResult : undefined;
  const result = fetcher.data ?? initial;
  const [form, fields] = useForm<LeadValues>({
    // The fields' ids are `${kind}-${name}` and their messages' `${kind}-${name}-error`.
    id: kind,
    // A success's reply resets the form to `defaultValue`; any other keeps what was posted.
    lastResult: result?.reply,
    defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: formSchemas[kind] }),
  });
  useAnnouncement(kind, fetcher.data);

  // Without JavaScript there is no toast: the returned page states the success instead.
  const outcome: Outcome | undefined =
    !fetcher.data && initial?.status === "success"
      ? { kind: "success", ...copy.success, reference: initial.reference }
      : result && result.status !== "success" && result.status !== "invalid"
        ? { kind: "notice", title: result.title, message: result.message }
        : undefined;
  // A document post's first invalid field takes the focus on load, without JavaScript too.
  const autoFocusField =
    !fetcher.data && initial?.status === "invalid" ? formFields[kind].find((name) => initial.reply.error?.[name]) : undefined;
  const submitting = fetcher.state !== "idle";

  const titleId = `${kind}-form-title`;
  const noticeId = `${kind}-privacy-notice`;
  return (
    <section aria-labelledby={titleId} className="card relative p-6 sm:p-8">
      <h2 id={titleId} className="text-2xl font-bold tracking-tight">
        {copy.title}
      </h2>
      <p className="mt-1.5 text-sm text-muted">{copy.description}</p>
      <fetcher.Form
        // A success gives the form a new key: it is mounted again, empty (product-rules §4: "the form resets").
        key={form.key}
        id={form.id}
        onSubmit={form.onSubmit}
        noValidate
        method="post"
        action={action}
        aria-labelledby={titleId}
        aria-describedby={noticeId}
        className="mt-6 flex flex-col gap-5"
     >
        <FormStatus outcome={outcome} />
        <HiddenFields kind={kind} idempotencyKey={idempotencyKey} />
        <LeadFields rows={rows} fields={fields} autoFocusField={autoFocusField} />
        <PrivacyNotice id={noticeId} retentionDays={retentionDays} />
        <div>
          <SubmitButton submitting={submitting} label={copy.submit} busyLabel={copy.submitting} />
        </div>
      </fetcher.Form>
    </section>
  );
}

/** product-rules §2: "General Contact" — form "Send Us a Message". */
export function ContactMessageForm(props: FormProps) {
  return <LeadForm kind="contact" {...props} />;
}

/** product-rules §2: "Sync Licensing" — form "Sync Licensing Inquiry". */
export function LicensingRequestForm({ tracks, ...props }: FormProps & { tracks: string }) {
  const fetcher = useFetcher<LeadActionResult>({ key: "lead-licensing" });
  // The catalog links here with ?tracks=…; after a success the form starts empty, tracks too.
  const defaultValue = tracks && fetcher.data?.status !== "success" ? { tracks } : undefined;
  return <LeadForm kind="licensing" {...props} defaultValue={defaultValue} />;
}
