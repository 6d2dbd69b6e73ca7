import { Check, Search, X } from "lucide-react";
import { Suspense, useId } from "react";
import { Await, Form, Link } from "react-router";
import { cn } from "~/lib/cn";
import { CHANNEL_CATEGORIES, CHANNEL_COUNTRIES, CHANNEL_LANGUAGES, SUBSCRIBER_RANGES } from "~/lib/catalog/channel-options";
import {
  activeChips,
  chooseAll,
  chooseChannelCategory,
  chooseSinglesGenre,
  chooseSinglesSubGenre,
  chooseSubGenre,
  chooseTopGenre,
  removeChip,
  toggleChannelCountry,
  toggleChannelLanguage,
  toggleSubscriberRange,
} from "~/lib/catalog/filters";
import type { GenreLevel } from "~/lib/catalog/genre-tree";
import type { CatalogFilters } from "~/lib/catalog/types";
import { catalogHref, clearedState, serializeCatalogState, withFilters, type CatalogState } from "~/lib/catalog/url-state";

const hrefWith = (state: CatalogState, filters: CatalogFilters) => catalogHref(withFilters(state, filters));

interface Option {
  label: string;
  href: string;
  selected: boolean;
}

const pill =
  "inline-flex min-h-9 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium whitespace-nowrap transition-colors";

function OptionRow({ label, options, toggles = false }: { label: string; options: Option[]; toggles?: boolean }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
      <span id={id} className="w-32 shrink-0 text-xs font-semibold tracking-wider text-muted uppercase">
        {label}
      </span>
      <ul className="-mx-5 flex min-w-0 gap-2 overflow-x-auto px-5 pb-1 [scrollbar-width:thin] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
        {options.map((o) => (
          <li key={o.label} className="shrink-0">
            <Link
              to={o.href}
              preventScrollReset
              aria-current={o.selected ? "true" : undefined}
              className={cn(
                pill,
                o.selected
                  ? "border-transparent bg-[linear-gradient(100deg,#ff8a5c,#ff5c8d)] text-[#12060a]"
                  : "border-border bg-white/[0.03] text-fg hover:border-[#4a4a66] hover:bg-white/10",
              )}
            >
              {toggles && o.selected ? <Check className="size-3.5" aria-hidden="true" /> : null}
              {o.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

const levelLabel = (level: number) => (level === 0 ? "Genre" : level === 1 ? "Sub-genre" : `Sub-genre ${level}`);

/** Spec §2/§4 music filter: the genre tree, one row per level, each with "All". */
export function MusicFilter({ state, levels }: { state: CatalogState; levels: GenreLevel[] }) {
  return (
    <div className="flex flex-col gap-3">
      {levels.map((lvl) => (
        <OptionRow
          key={lvl.level}
          label={levelLabel(lvl.level)}
          options={[
            { label: "All", href: hrefWith(state, chooseAll(state.filters, lvl.level)), selected: !lvl.selected },
            ...lvl.options.map((name) => ({
              label: name,
              href: hrefWith(
                state,
                lvl.level === 0 ? chooseTopGenre(state.filters, name) : chooseSubGenre(state.filters, lvl.level, name),
              ),
              selected: lvl.selected.toLowerCase() === name.toLowerCase(),
            })),
          ]}
        />
      ))}
    </div>
  );
}

function SkeletonBadges({ label }: { label: string }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4" aria-busy="true">
      <span className="w-32 shrink-0 text-xs font-semibold tracking-wider text-muted uppercase">{label}</span>
      <ul className="flex flex-wrap gap-2" data-testid="genre-skeletons">
        {Array.from({ length: 5 }, (_, i) => (
          <li key={i} className={cn(pill, "animate-pulse border-border bg-white/10 text-muted motion-reduce:animate-none")}>
            Loading...
          </li>
        ))}
      </ul>
    </div>
  );
}

function SubGenreMessage({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
      <span className="w-32 shrink-0 text-xs font-semibold tracking-wider text-muted uppercase">Sub-genre</span>
      <p role="status" className="text-sm text-muted">
        {children}
      </p>
    </div>
  );
}

/**
 * Spec §2/§4 singles filter: genres from the genre list (5 skeleton badges while they load),
 * then the chosen genre's sub-genres ("Loading sub-genres...", or "No sub-genres available
 * for this genre.").
 */
export function SinglesFilter({
  state,
  genres,
  subGenres,
  genresLoading,
  subGenresLoading,
}: {
  state: CatalogState;
  genres: string[];
  subGenres: string[] | Promise<string[]> | null;
  genresLoading: boolean;
  subGenresLoading: boolean;
}) {
  if (genresLoading) return <SkeletonBadges label="Genre" />;
  const { filters } = state;
  const chosenSub = filters.subGenres[0] ?? "";
  const subRow = (list: string[]) =>
    list.length ? (
      <OptionRow
        label="Sub-genre"
        options={[
          { label: "All", href: hrefWith(state, chooseSinglesSubGenre(filters, "")), selected: !chosenSub },
          ...list.map((name) => ({
            label: name,
            href: hrefWith(state, chooseSinglesSubGenre(filters, name)),
            selected: chosenSub.toLowerCase() === name.toLowerCase(),
          })),
        ]}
      />
    ) : (
      <SubGenreMessage>No sub-genres available for this genre.</SubGenreMessage>
    );
  return (
    <div className="flex flex-col gap-3">
      <OptionRow
        label="Genre"
        options={[
          { label: "All", href: hrefWith(state, chooseSinglesGenre(filters, "")), selected: !filters.genres },
          ...genres.map((g) => ({
            label: g,
            href: hrefWith(state, chooseSinglesGenre(filters, g)),
            selected: filters.genres.toLowerCase() === g.toLowerCase(),
          })),
        ]}
      />
      {subGenresLoading ? (
        <SubGenreMessage>Loading sub-genres...</SubGenreMessage>
      ) : filters.genres && subGenres !== null ? (
        <Suspense fallback={<SubGenreMessage>Loading sub-genres...</SubGenreMessage>}>
          <Await resolve={subGenres} errorElement={<SubGenreMessage>No sub-genres available for this genre.</SubGenreMessage>}>
            {(list) => subRow(list)}
          </Await>
        </Suspense>
      ) : null}
    </div>
  );
}

/** Spec §2/§4 channel filters: Category single choice; the rest multi-select toggles. */
export function ChannelFilters({ state }: { state: CatalogState }) {
  const f = state.filters;
  const toggles = (label: string, values: readonly string[], selected: string[], toggle: (f: CatalogFilters, v: string) => CatalogFilters) => (
    <OptionRow
      label={label}
      toggles
      options={values.map((v) => ({ label: v, href: hrefWith(state, toggle(f, v)), selected: selected.includes(v) }))}
    />
  );
  return (
    <div className="flex flex-col gap-3">
      <OptionRow
        label="Category"
        options={[
          { label: "All", href: hrefWith(state, { ...f, genres: "" }), selected: !f.genres },
          ...CHANNEL_CATEGORIES.map((c) => ({ label: c, href: hrefWith(state, chooseChannelCategory(f, c)), selected: f.genres === c })),
        ]}
      />
      {toggles("Countries", CHANNEL_COUNTRIES, f.countries, toggleChannelCountry)}
      {toggles("Languages", CHANNEL_LANGUAGES, f.keywords, toggleChannelLanguage)}
      {toggles("Subscriber Range", SUBSCRIBER_RANGES, f.regions, toggleSubscriberRange)}
    </div>
  );
}

/**
 * Spec §2 "Filter bar": fixed below the 80 px header while scrolling, with the search field,
 * a removable chip per active filter and "Clear Filters". The search is a GET form carrying
 * the current filters, so it works without JavaScript.
 */
export function FilterBar({ state, searchable }: { state: CatalogState; searchable: boolean }) {
  const chips = activeChips(state.type, state.filters);
  const hidden = [...serializeCatalogState({ ...state, q: "", page: 1, item: "" }).entries()];
  const searchId = useId();
  return (
    <div className="sticky top-[var(--header-height)] z-30 -mx-5 border-y border-border bg-bg/85 px-5 py-3 backdrop-blur-md sm:mx-0 sm:rounded-2xl sm:border">
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
        <Link
          to={catalogHref(clearedState(state))}
          preventScrollReset
          className="btn-secondary min-h-10 px-4 py-0 text-sm"
        >
          Clear Filters
        </Link>
      </div>
      {chips.length || state.q ? (
        <ul aria-label="Active filters" className="mt-2.5 flex flex-wrap gap-2">
          {chips.map((chip) => (
            <li key={`${chip.kind}-${chip.level ?? ""}-${chip.value}`}>
              <Link
                to={hrefWith(state, removeChip(state.filters, chip))}
                preventScrollReset
                aria-label={`Remove filter ${chip.label}`}
                className="inline-flex min-h-8 items-center gap-1.5 rounded-full bg-white/10 py-1 pr-2 pl-3 text-sm font-medium hover:bg-white/15"
              >
                {chip.label}
                <X className="size-3.5" aria-hidden="true" />
              </Link>
            </li>
          ))}
          {state.q ? (
            <li>
              <Link
                to={catalogHref({ ...state, q: "", page: 1, item: "" })}
                preventScrollReset
                aria-label={`Remove search ${state.q}`}
                className="inline-flex min-h-8 items-center gap-1.5 rounded-full bg-white/10 py-1 pr-2 pl-3 text-sm font-medium hover:bg-white/15"
              >
                “{state.q}”
                <X className="size-3.5" aria-hidden="true" />
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
