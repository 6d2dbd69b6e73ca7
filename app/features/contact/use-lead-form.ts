import { useCallback, useEffect, useState, type FormEvent, type RefObject } from "react";
import { useFetcher } from "react-router";
import { contactForm, licensingForm } from "~/content/contact";
import { referenceText, type LeadActionResult } from "~/lib/contact/result";
import { fieldErrorsOf, formFields, formSchemas, formValues, validateField, type FieldErrors, type FormKind } from "~/lib/contact/schemas";
import { notify } from "~/lib/toast";

const successCopy = { contact: contactForm.success, licensing: licensingForm.success };

/**
 * State of one lead form. Progressive enhancement: the same <form> posts to the action
 * without JavaScript (the document comes back with `documentResult`); with JavaScript a
 * fetcher posts it, the form is checked on submit with the shared schema, and the outcome is
 * announced by a toast (product-rules §8).
 *
 * ADR 0093: no message appears before the first submit (product-rules §4: "the input is validated" on
 * submission). A message shown when a field loses focus moved the Submit button between the
 * mouse press and release, and the click was lost (issue #11). After the first submit every
 * field is checked again as it changes, so a message comes and goes while typing, never
 * between a press and a release.
 */
export function useLeadForm(
  kind: FormKind,
  documentResult: LeadActionResult | undefined,
  formRef: RefObject<HTMLFormElement | null>,
) {
  const fetcher = useFetcher<LeadActionResult>({ key: `lead-${kind}` });
  const initial = documentResult?.form === kind ? documentResult : undefined;
  const result = fetcher.data ?? initial;
  const [errors, setErrors] = useState<FieldErrors>(initial?.status === "invalid" ? initial.fieldErrors : {});
  // A document post that came back invalid was a first submit too.
  const [submitted, setSubmitted] = useState(initial?.status === "invalid");
  // Bumped after a success: the form is remounted empty (product-rules §4: "the form resets").
  const [generation, setGeneration] = useState(0);

  const focusField = useCallback(
    (fieldErrors: FieldErrors) => {
      const first = formFields[kind].find((f) => fieldErrors[f]);
      const named = first ? formRef.current?.elements.namedItem(first) : null;
      // a checkbox group is a list of inputs under one name: its first box
      const element = named instanceof RadioNodeList ? named[0] : named;
      if (element instanceof HTMLElement) element.focus();
    },
    [kind, formRef],
  );

  // A new answer from the action updates the form's state while rendering…
  const [handled, setHandled] = useState<LeadActionResult | undefined>(undefined);
  if (fetcher.data && fetcher.data !== handled) {
    setHandled(fetcher.data);
    if (fetcher.data.status === "success") {
      setErrors({});
      setSubmitted(false);
      setGeneration((g) => g + 1);
    } else if (fetcher.data.status === "invalid") {
      setErrors(fetcher.data.fieldErrors);
    }
  }
  // …and is announced once it is on screen.
  useEffect(() => {
    const data = fetcher.data;
    if (!data) return;
    if (data.status === "success") notify.success(successCopy[kind].title, `${successCopy[kind].description} ${referenceText(data.reference)}`);
    else if (data.status === "invalid") focusField(data.fieldErrors);
    // Deviation 2: the visitor is told (the contact address is in the message) and keeps the form.
    else notify.error(data.title, data.message);
  }, [fetcher.data, kind, focusField]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setSubmitted(true);
    const parsed = formSchemas[kind].safeParse(formValues(kind, new FormData(event.currentTarget)));
    if (!parsed.success) {
      event.preventDefault();
      const fieldErrors = fieldErrorsOf(parsed.error);
      setErrors(fieldErrors);
      focusField(fieldErrors);
    } else {
      setErrors({});
    }
  };

  /** Checks one field as the form holds it now (a checkbox group: all its boxes). */
  const check = (control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement) => {
    const { name, form: element } = control;
    if (!element) return;
    const message = validateField(kind, name, formValues(kind, new FormData(element))[name] ?? "");
    setErrors((current) => (current[name] === message ? current : { ...current, [name]: message }));
  };

  /** ADR 0093: nothing before the first submit; after it, each change re-checks its field. */
  const fieldHandlers = {
    onChange: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement }) => {
      if (submitted) check(event.currentTarget);
    },
  };

  // After a success the form starts empty; before, a document post's values are put back.
  const values = generation === 0 && initial && initial.status !== "success" ? initial.values : undefined;
  const notice =
    result && result.status !== "success" && result.status !== "invalid"
      ? { title: result.title, message: result.message }
      : undefined;
  // Without JavaScript there is no toast: the returned page states the success instead.
  const documentSuccess =
    generation === 0 && !fetcher.data && initial?.status === "success" ? { ...successCopy[kind], reference: initial.reference } : undefined;

  return {
    fetcher,
    errors,
    generation,
    values,
    notice,
    documentSuccess,
    /** Focus the first invalid field of a document post on load (works without JavaScript). */
    autoFocusField: initial?.status === "invalid" && generation === 0 ? formFields[kind].find((f) => initial.fieldErrors[f]) : undefined,
    submitting: fetcher.state !== "idle",
    onSubmit,
    fieldHandlers,
  };
}
