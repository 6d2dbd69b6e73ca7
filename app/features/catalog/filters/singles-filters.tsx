import { Suspense } from "react";
import { Await } from "react-router";
import { cn } from "~/lib/cn";
import { chooseSinglesGenre, chooseSinglesSubGenre } from "~/lib/catalog/filters";
import type { SinglesState } from "~/lib/catalog/types";
import { catalogHref, withFilters } from "~/lib/catalog/url-state";
import { OptionRow, pill, rowLabel } from "./option-row";

function SkeletonBadges({ label }: { label: string }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4" aria-busy="true">
      <span className={rowLabel}>{label}</span>
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
      <span className={rowLabel}>Sub-genre</span>
      <p role="status" className="text-sm text-muted">
        {children}
      </p>
    </div>
  );
}

/**
 * product-rules §2/§4 singles filter: genres from the genre list (5 skeleton badges while they load),
 * then the chosen genre's sub-genres ("Loading sub-genres...", or "No sub-genres available
 * for this genre.").
 */
export function SinglesFilters({
  state,
  genres,
  subGenres,
  genresLoading,
  subGenresLoading,
}: {
  state: SinglesState;
  genres: string[];
  subGenres: string[] | Promise<string[]> | null;
  genresLoading: boolean;
  subGenresLoading: boolean;
}) {
  if (genresLoading) return <SkeletonBadges label="Genre" />;
  const href = (next: SinglesState) => catalogHref(withFilters(state, next));
  const chosenSub = state.subGenre;
  const subRow = (list: string[]) =>
    list.length ? (
      <OptionRow
        label="Sub-genre"
        options={[
          { label: "All", href: href(chooseSinglesSubGenre(state, "")), selected: !chosenSub },
          ...list.map((name) => ({
            label: name,
            href: href(chooseSinglesSubGenre(state, name)),
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
          { label: "All", href: href(chooseSinglesGenre(state, "")), selected: !state.genre },
          ...genres.map((g) => ({
            label: g,
            href: href(chooseSinglesGenre(state, g)),
            selected: state.genre.toLowerCase() === g.toLowerCase(),
          })),
        ]}
      />
      {subGenresLoading ? (
        <SubGenreMessage>Loading sub-genres...</SubGenreMessage>
      ) : state.genre && subGenres !== null ? (
        <Suspense fallback={<SubGenreMessage>Loading sub-genres...</SubGenreMessage>}>
          <Await resolve={subGenres} errorElement={<SubGenreMessage>No sub-genres available for this genre.</SubGenreMessage>}>
            {(list) => subRow(list)}
          </Await>
        </Suspense>
      ) : null}
    </div>
  );
}
