import { Check } from "~/components/ui/icons/check";
import { useId, type ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";

/**
 * The row every view's filters are made of (product-rules §2 "Filters by type"): a label and a list of
 * choices, each a plain link to the URL of that choice (DESIGN.md §3 deviation 5), so the
 * filters work without JavaScript.
 */
export interface Option {
  label: string;
  href: string;
  selected: boolean;
  /** shown after the label, e.g. a count ("A minor 3") */
  detail?: string;
  /** the accessible name, when the visible text needs more words */
  ariaLabel?: string;
}

export const pill =
  "inline-flex min-h-9 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium whitespace-nowrap transition-colors";

export const rowLabel = "w-32 shrink-0 text-xs font-semibold tracking-wider text-muted uppercase";

/** A labelled row that is not a list of links (a form, a message), laid out like OptionRow. */
export function FilterRow({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
      <span id={id} className={rowLabel}>
        {label}
      </span>
      {children}
    </div>
  );
}

export function OptionRow({ label, options, toggles = false }: { label: string; options: Option[]; toggles?: boolean }) {
  return (
    <FilterRow label={label}>
      <ul className="-mx-5 flex min-w-0 gap-2 overflow-x-auto px-5 pb-1 [scrollbar-width:thin] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
        {options.map((o) => (
          <li key={o.label} className="shrink-0">
            <Link
              to={o.href}
              preventScrollReset
              aria-current={o.selected ? "true" : undefined}
              aria-label={o.ariaLabel}
              className={cn(
                pill,
                o.selected
                  ? "border-transparent bg-[linear-gradient(100deg,#ff8a5c,#ff5c8d)] text-[#12060a]"
                  : "border-border bg-white/[0.03] text-fg hover:border-[#4a4a66] hover:bg-white/10",
              )}
            >
              {toggles && o.selected ? <Check className="size-3.5" aria-hidden="true" /> : null}
              {o.label}
              {o.detail ? <span className={cn("tabular-nums", o.selected ? "text-[#12060a]/75" : "text-muted")}>{o.detail}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </FilterRow>
  );
}
