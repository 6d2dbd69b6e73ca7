import { useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { CircleAlert } from "~/components/ui/icons/circle-alert";
import { LoaderCircle } from "~/components/ui/icons/loader-circle";
import { Send } from "~/components/ui/icons/send";
import { ShieldCheck } from "~/components/ui/icons/shield-check";
import { useEffect, useState, type MouseEvent } from "react";
import { useFetcher } from "react-router";
import { licensingForm, type LeadFieldSpec } from "~/content/contact";
import { formPrivacyNotice } from "~/content/privacy";
import { site } from "~/content/site";
import { cn } from "~/lib/cn";
import { fillTemplate } from "~/lib/legal/facts";
import { type LeadActionResult } from "~/lib/contact/result";
import { formFields, formSchemas, HONEYPOT_FIELD, MAX_LENGTH, type FormKind } from "~/lib/contact/schemas";
import { notify } from "~/lib/toast";
import { ChoiceGroup, Field, NativeSelect } from "./field";
import { formAnchor, forms, LeadConfirmation, ReferenceLine } from "./lead-confirmation";

/** What a lead form holds, as Conform reads it from the <form>: a string per field, a list for a checkbox group. */
type LeadValues = Record<string, string | string[]>;
type LeadFieldMeta = FieldMetadata<string | string[], LeadValues>;

interface FormProps {
  idempotencyKey: string;
  documentResult: LeadActionResult | undefined;
  /** LEAD_RETENTION_DAYS, which the privacy notice states (issue #16). */
  retentionDays: number;
  /**
   * The reference whose confirmation the visitor put away with "Send another", and how to put
   * one away. Held by the tabs (contact-tabs.tsx), which outlive the form: Radix unmounts the
   * inactive tab's panel, and switching back must not bring a put-away confirmation back.
   */
  dismissed: string | undefined;
  onDismiss: (reference: string) => void;
}

/**
 * The fetcher each form posts with. The tabs hold it too (contact-tabs.tsx) so that its answer
 * outlives the form's panel when the other tab is chosen (issue #41).
 */
export const leadFetcherKey = (kind: FormKind) => `lead-${kind}`;

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

/** A refusal the visitor can act on (429, 503, a stale form): an alert above the kept values. */
function FormNotice({ notice }: { notice: { title: string; message: string } | undefined }) {
  if (!notice) return null;
  return (
    <div role="alert" className="flex items-start gap-3 rounded-xl border border-[#7a2d3b] bg-[#2a1016] p-4 text-sm">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-[#ff9aa8]" />
      <p>
        <strong className="block font-semibold text-fg">{notice.title}</strong>
        <span className="text-[#ffd6dc]">{notice.message}</span>
      </p>
    </div>
  );
}

/**
 * Issue #41: a "License this …" link lands here with Specific Tracks filled in; the field sits
 * low in the form, so the top of the form says what the request is about, in view on arrival.
 */
function RequestAbout({ tracks }: { tracks: string }) {
  return (
    <div className="mt-4 rounded-xl border border-border bg-white/5 px-4 py-3 text-sm">
      <p className="font-semibold text-muted">{licensingForm.about.label}</p>
      <p data-request-about="" className="mt-1 line-clamp-3 font-semibold break-words whitespace-pre-line text-fg">
        {tracks}
      </p>
      <p className="mt-1 text-muted">{licensingForm.about.note}</p>
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

// Three selects side by side only from lg, where the form is 4xl wide: at 3xl (and on tablets)
// a third of the row cut "Select budget range" (issue #41).
const ROW_COLUMNS = ["", "", "sm:grid-cols-2", "lg:grid-cols-3"];

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

/**
 * Every select of a form starts (and, after a send, starts again) on its prompt option. Issue
 * #41: without a default, Conform's reset set each select's `selectedIndex` to -1, an empty box
 * with no prompt.
 */
const emptySelects = Object.fromEntries(
  (["contact", "licensing"] as const).map((kind) => [
    kind,
    Object.fromEntries(forms[kind].rows.flat().flatMap((f: LeadFieldSpec) => (f.control === "select" ? [[f.name, ""]] : []))),
  ]),
) as Record<FormKind, LeadValues>;

/**
 * Tells the visitor what became of a post made with JavaScript (product-rules §8): the success
 * toast with the reference (product-rules §4 keeps it; the lasting confirmation in the form's
 * place is what stays, issue #41), or the refusal's toast. Deviation 2: the visitor is told (the contact
 * address is in the message) and keeps the form. A form with field messages needs no toast:
 * Conform focuses its first invalid field.
 */
function useAnnouncement(kind: FormKind, data: LeadActionResult | undefined) {
  useEffect(() => {
    if (!data || data.status === "invalid") return;
    const { success } = forms[kind].copy;
    if (data.status === "success") {
      notify.success(
        success.title,
        <>
          {success.description} <ReferenceLine reference={data.reference} />
        </>,
      );
    } else notify.error(data.title, data.message);
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
  about,
  dismissed,
  onDismiss,
}: FormProps & { kind: FormKind; defaultValue?: LeadValues; about?: string }) {
  const { copy } = forms[kind];
  const fetcher = useFetcher<LeadActionResult>({ key: leadFetcherKey(kind) });
  // What the fetcher held when this form mounted was announced (and focused) then: switching
  // tabs mounts the form again, and must not raise that toast or move the focus again (issue #41).
  const [mountedWith] = useState(fetcher.data);
  const fresh = fetcher.data !== mountedWith;
  const initial = documentResult?.form === kind ? documentResult : undefined;
  const result = fetcher.data ?? initial;
  useAnnouncement(kind, fresh ? fetcher.data : undefined);

  // Issue #41: a stored lead shows the confirmation in the form's place until "Send another".
  const [reopened, setReopened] = useState(false);
  const putAway = result?.status === "success" && result.reference === dismissed;
  const sent = result?.status === "success" && !putAway ? result.reference : undefined;
  const sendAnother = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!sent || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    onDismiss(sent);
    setReopened(true);
  };

  const titleId = `${kind}-form-title`;
  return (
    // scroll-margin: a "License this …" link (#licensing-form) lands with the tabs above the form in view
    <section id={formAnchor(kind)} aria-labelledby={titleId} className="card relative scroll-mt-40 p-6 sm:p-8">
      <h2 id={titleId} className="text-2xl font-bold tracking-tight">
        {copy.title}
      </h2>
      {sent ? (
        <LeadConfirmation kind={kind} reference={sent} focus={fresh} onAnother={sendAnother} />
      ) : (
        <>
          <p className="mt-1.5 text-sm text-muted">{copy.description}</p>
          {about ? <RequestAbout tracks={about} /> : null}
          <LeadFormBody
            // After "Send another" the form starts anew (a new Conform state), from this render's
            // defaults: no pre-fill once its request was sent, whenever Conform applied the reset
            key={dismissed ?? ""}
            kind={kind}
            titleId={titleId}
            idempotencyKey={idempotencyKey}
            retentionDays={retentionDays}
            result={putAway ? undefined : result}
            defaultValue={defaultValue}
            autoFocusField={
              // A document post's first invalid field takes the focus on load, without JavaScript
              // too; after "Send another", the empty form's first field.
              !fetcher.data && initial?.status === "invalid"
                ? formFields[kind].find((name) => initial.reply.error?.[name])
                : reopened
                  ? formFields[kind][0]
                  : undefined
            }
          />
        </>
      )}
    </section>
  );
}

/** The <form> of a LeadForm, with its Conform state. */
function LeadFormBody({
  kind,
  titleId,
  idempotencyKey,
  retentionDays,
  result,
  defaultValue,
  autoFocusField,
}: {
  kind: FormKind;
  titleId: string;
  idempotencyKey: string;
  retentionDays: number;
  result: LeadActionResult | undefined;
  defaultValue?: LeadValues;
  autoFocusField?: string;
}) {
  const { copy, rows, action } = forms[kind];
  const fetcher = useFetcher<LeadActionResult>({ key: leadFetcherKey(kind) });
  const [form, fields] = useForm<LeadValues>({
    // The fields' ids are `${kind}-${name}` and their messages' `${kind}-${name}-error`.
    id: kind,
    // A success's reply resets the form to `defaultValue`; any other keeps what was posted.
    lastResult: result?.reply,
    defaultValue: { ...emptySelects[kind], ...defaultValue },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: formSchemas[kind] }),
  });
  const notice = result && result.status !== "success" && result.status !== "invalid" ? { title: result.title, message: result.message } : undefined;
  const submitting = fetcher.state !== "idle";
  const noticeId = `${kind}-privacy-notice`;
  return (
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
      <FormNotice notice={notice} />
      <HiddenFields kind={kind} idempotencyKey={idempotencyKey} />
      <LeadFields rows={rows} fields={fields} autoFocusField={autoFocusField} />
      <PrivacyNotice id={noticeId} retentionDays={retentionDays} />
      <div>
        <SubmitButton submitting={submitting} label={copy.submit} busyLabel={copy.submitting} />
      </div>
    </fetcher.Form>
  );
}

/** product-rules §2: "General Contact" — form "Send Us a Message". */
export function ContactMessageForm(props: FormProps) {
  return <LeadForm kind="contact" {...props} />;
}

/** product-rules §2: "Sync Licensing" — form "Sync Licensing Inquiry". */
export function LicensingRequestForm({ tracks, ...props }: FormProps & { tracks: string }) {
  const fetcher = useFetcher<LeadActionResult>({ key: leadFetcherKey("licensing") });
  // The catalog links here with ?tracks=…; after a success the form starts empty, tracks too.
  const defaultValue = tracks && fetcher.data?.status !== "success" ? { tracks } : undefined;
  return <LeadForm kind="licensing" {...props} defaultValue={defaultValue} about={defaultValue?.tracks} />;
}
