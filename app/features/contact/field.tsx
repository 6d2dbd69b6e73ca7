import { ChevronDown } from "~/components/ui/icons/chevron-down";
import type { ComponentProps, ReactNode } from "react";
import type { LeadFieldSpec } from "~/content/contact";
import { cn } from "~/lib/cn";

const controlClass =
  "block w-full scroll-mt-28 rounded-xl border border-border bg-[#0d0d16] px-4 py-3 text-[0.95rem] text-fg placeholder:text-[#8a8aa3] transition-colors hover:border-[#4a4a66] focus-visible:border-[#ffb38f] focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-[#ffb38f] aria-[invalid=true]:border-[#ff6b81]";

interface FieldProps {
  id: string;
  label: string;
  error?: string;
  className?: string;
  children: (control: { id: string; "aria-invalid": boolean; "aria-describedby"?: string; className: string }) => ReactNode;
}

/** A label, one control and its error message, tied together for assistive technology. */
// No visual asterisk: the optional fields say so in their labels ("Specific Tracks (Optional)").
export function Field({ id, label, error, className, children }: FieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <label htmlFor={id} className="text-sm font-semibold text-fg">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": Boolean(error),
        "aria-describedby": error ? errorId : undefined,
        className: controlClass,
      })}
      {error ? (
        <p id={errorId} className="flex items-start gap-1.5 text-sm text-[#ff9aa8]">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A native <select>: works without JavaScript and with every assistive technology. */
export function NativeSelect({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className="relative">
      <select {...props} className={cn(className, "appearance-none pr-11")}>
        {children}
      </select>
      <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-4 size-4 -translate-y-1/2 text-muted" />
    </div>
  );
}

/**
 * A group of checkboxes posting one value each under the same name (issue #11 `media`): a
 * fieldset whose legend names the group, its message tied to the group and to each box.
 */
export function ChoiceGroup({
  id,
  name,
  spec,
  error,
  chosen,
  autoFocus,
  required,
}: {
  id: string;
  name: string;
  spec: LeadFieldSpec;
  error?: string;
  chosen: readonly string[];
  autoFocus: boolean;
  required: boolean;
}) {
  const errorId = `${id}-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-semibold text-fg">{spec.label}</legend>
      <div className="grid gap-x-5 gap-y-2 sm:grid-cols-2">
        {spec.options?.map((option, i) => (
          <label key={option.value} className="flex min-h-6 cursor-pointer items-center gap-3 text-[0.95rem] text-fg">
            <input
              name={name}
              required={required}
              type="checkbox"
              value={option.value}
              defaultChecked={chosen.includes(option.value)}
              autoFocus={autoFocus && i === 0}
              aria-invalid={Boolean(error)}
              className="size-[1.125rem] shrink-0 cursor-pointer accent-[#ff7a45] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[#ffb38f]"
            />
            {option.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="flex items-start gap-1.5 text-sm text-[#ff9aa8]">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
