import { useCallback, useEffect, useState, type FocusEvent, type FormEvent, type RefObject } from "react";
import { useFetcher } from "react-router";
import { contactForm, licensingForm } from "~/content/contact";
import type { LeadActionResult } from "~/lib/contact/result";
import { fieldErrorsOf, formFields, formSchemas, validateField, type FieldErrors, type FormKind } from "~/lib/contact/schemas";
import { notify } from "~/lib/toast";

const successCopy = { contact: contactForm.success, licensing: licensingForm.success };

/**
 * State of one lead form. Progressive enhancement: the same <form> posts to the action
 * without JavaScript (the document comes back with `documentResult`); with JavaScript a
 * fetcher posts it, fields are checked on blur and on submit with the shared schema, and
 * the outcome is announced by a toast (spec §8).
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
  // Bumped after a success: the form is remounted empty (spec §4: "the form resets").
  const [generation, setGeneration] = useState(0);

  const focusField = useCallback(
    (fieldErrors: FieldErrors) => {
      const first = formFields[kind].find((f) => fieldErrors[f]);
      const element = first ? formRef.current?.elements.namedItem(first) : null;
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
      setGeneration((g) => g + 1);
    } else if (fetcher.data.status === "invalid") {
      setErrors(fetcher.data.fieldErrors);
    }
  }
  // …and is announced once it is on screen.
  useEffect(() => {
    const data = fetcher.data;
    if (!data) return;
    if (data.status === "success") notify.success(successCopy[kind].title, successCopy[kind].description);
    else if (data.status === "invalid") focusField(data.fieldErrors);
    // Deviation 2: the visitor is told (the contact address is in the message) and keeps the form.
    else notify.error(data.title, data.message);
  }, [fetcher.data, kind, focusField]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const formData = new FormData(event.currentTarget);
    const values = Object.fromEntries(formFields[kind].map((f) => [f, String(formData.get(f) ?? "")]));
    const parsed = formSchemas[kind].safeParse(values);
    if (!parsed.success) {
      event.preventDefault();
      const fieldErrors = fieldErrorsOf(parsed.error);
      setErrors(fieldErrors);
      focusField(fieldErrors);
    } else {
      setErrors({});
    }
  };

  const check = (name: string, value: string) =>
    setErrors((current) => {
      const message = validateField(kind, name, value);
      return current[name] === message ? current : { ...current, [name]: message };
    });

  /** On blur: check the field. On input: re-check only a field already shown as wrong. */
  const fieldHandlers = {
    onBlur: (event: FocusEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      check(event.currentTarget.name, event.currentTarget.value),
    onChange: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement }) => {
      const { name, value } = event.currentTarget;
      if (errors[name]) check(name, value);
    },
  };

  // After a success the form starts empty; before, a document post's values are put back.
  const values = generation === 0 && initial && initial.status !== "success" ? initial.values : undefined;
  const notice =
    result && result.status !== "success" && result.status !== "invalid"
      ? { title: result.title, message: result.message }
      : undefined;
  // Without JavaScript there is no toast: the returned page states the success instead.
  const documentSuccess = generation === 0 && !fetcher.data && initial?.status === "success" ? successCopy[kind] : undefined;

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
