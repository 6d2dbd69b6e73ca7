import { Search } from "~/components/ui/icons/search";
import { X } from "~/components/ui/icons/x";
import { useId } from "react";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { activeChips, removeChip, type FilterChip } from "~/lib/catalog/filters";
import type { CatalogState } from "~/lib/catalog/types";
import { catalogHref, clearedState, serializeCatalogState, withFilters, withSearch } from "~/lib/catalog/url-state";

const chipClass =
  "inline-flex min-h-8 items-center gap-1.5 rounded-full bg-white/10 py-1 pr-2 pl-3 text-sm font-medium hover:bg-white/15";

/** A removable chip (product-rules §4 "Active filter chips"): a link to the same view without that filter. */
function Chip({ href, label, removeLabel }: { href: string; label: string; removeLabel: string }) {
  return (
    <li>
      <Link to={href} preventScrollReset aria-label={removeLabel} className={chipClass}>
        {label}
        <X className="size-3.5" aria-hidden="true" />
      </Link>
    </li>
  );
}

/** product-rules §4: one chip per active filter of any view (activeChips), and one for the search. */
export function FilterChips({ state, likeLabel }: { state: CatalogState; likeLabel?: string }) {
  const chips = activeChips(state);
  if (!chips.length && !state.q) return null;
  const key = (chip: FilterChip) => `${chip.kind}-${chip.level ?? ""}-${chip.value}`;
  return (
    <ul aria-label="Active filters" className="mt-2.5 flex flex-wrap gap-2">
      {chips.map((chip) => (
        <Chip
          key={key(chip)}
          href={catalogHref(withFilters(state, removeChip(state, chip)))}
          label={chip.kind === "like" && likeLabel ? likeLabel : chip.label}
          removeLabel={`Remove filter ${chip.kind === "like" && likeLabel ? likeLabel : chip.label}`}
        />
      ))}
      {state.q ? <Chip href={catalogHref(withSearch(state, ""))} label={`“${state.q}”`} removeLabel={`Remove search ${state.q}`} /> : null}
    </ul>
  );
}

/**
 * product-rules §2 "Filter bar": fixed below the 80 px header while scrolling (from 640 px wide; on a
 * phone it scrolls away, so that a like= view's first result fits the first screen, issue #41 and
 * docs/spec-deviations.md), with the search field, a removable chip per active filter and "Clear Filters". The search is a GET form carrying
 * the current filters, so it works without JavaScript.
 */
export function FilterBar({ state, searchable, likeLabel }: { state: CatalogState; searchable: boolean; likeLabel?: string }) {
  const hidden = [...serializeCatalogState({ ...state, q: "", page: 1, item: "" }).entries()];
  const searchId = useId();
  return (
    <div data-filter-bar="" className="z-30 -mx-5 mt-8 sm:sticky sm:top-[var(--header-height)] border-y border-border bg-bg/85 px-5 py-3 backdrop-blur-md sm:mx-0 sm:rounded-2xl sm:border">
      <div className="flex flex-wrap items-center gap-2">
        {searchable ? (
          <Form method="get" action="/catalog" role="search" preventScrollReset className="flex min-w-0 flex-1 basis-48 items-center gap-2">
            {hidden.map(([name, value], i) => (
              <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
            ))}
            <label htmlFor={searchId} className="sr-only">
              Search the catalog
            </label>
            <div className="relative min-w-0 flex-1">
              <Search className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted" aria-hidden="true" />
              <input
                id={searchId}
                key={state.q}
                type="search"
                name="q"
                defaultValue={state.q}
                maxLength={100}
                placeholder="Search title, artist, album or genre"
                className="min-h-10 w-full rounded-full border border-border bg-white/5 pr-4 pl-10 text-sm placeholder:text-muted/80 focus:border-ring focus:outline-none"
              />
            </div>
            <button type="submit" className="btn-secondary min-h-10 px-3 py-0 text-sm sm:px-5">
              <Search className="size-4 sm:hidden" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Search</span>
            </button>
          </Form>
        ) : null}
        <Link to={catalogHref(clearedState(state))} preventScrollReset className="btn-secondary min-h-10 px-4 py-0 text-sm">
          Clear Filters
        </Link>
      </div>
      <FilterChips state={state} likeLabel={likeLabel} />
    </div>
  );
}
