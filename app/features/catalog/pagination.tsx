import { ChevronLeft } from "~/components/ui/icons/chevron-left";
import { ChevronRight } from "~/components/ui/icons/chevron-right";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import { paginationWindow } from "~/lib/catalog/pagination";

const item = "inline-flex min-h-10 min-w-10 items-center justify-center rounded-full px-3 text-sm font-semibold tabular-nums";

/**
 * product-rules §2 "Pagination": page 1, the last page and current ± 2 with "…" for gaps; Prev and
 * Next disabled at the ends; hidden at 1 page or fewer. Every page is a plain link.
 */
export function Pagination({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor: (page: number) => string }) {
  const entries = paginationWindow(page, pageCount);
  if (!entries.length) return null;
  const edge = (label: string, target: number, disabled: boolean, icon: React.ReactNode, rel: string) =>
    disabled ? (
      <span aria-disabled="true" className={cn(item, "gap-1 border border-border text-muted opacity-50")}>
        {rel === "prev" ? icon : null}
        {label}
        {rel === "next" ? icon : null}
      </span>
    ) : (
      <Link to={hrefFor(target)} rel={rel} className={cn(item, "gap-1 border border-border hover:bg-white/10")}>
        {rel === "prev" ? icon : null}
        {label}
        {rel === "next" ? icon : null}
      </Link>
    );
  return (
    <nav aria-label="Pagination" className="mt-10 flex flex-wrap items-center justify-center gap-1.5">
      {edge("Prev", page - 1, page <= 1, <ChevronLeft className="size-4" aria-hidden="true" />, "prev")}
      <ul className="flex flex-wrap items-center gap-1">
        {entries.map((entry, i) =>
          entry === "gap" ? (
            <li key={`gap-${i}`} aria-hidden="true" className={cn(item, "min-w-6 px-0 text-muted")}>
              …
            </li>
          ) : (
            <li key={entry}>
              <Link
                to={hrefFor(entry)}
                aria-current={entry === page ? "page" : undefined}
                aria-label={`Page ${entry}`}
                className={cn(item, entry === page ? "bg-white text-[#0b0b12]" : "hover:bg-white/10")}
              >
                {entry}
              </Link>
            </li>
          ),
        )}
      </ul>
      {edge("Next", page + 1, page >= pageCount, <ChevronRight className="size-4" aria-hidden="true" />, "next")}
    </nav>
  );
}
