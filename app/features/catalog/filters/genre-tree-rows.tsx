import { chooseAll, chooseSubGenre, chooseTopGenre } from "~/lib/catalog/filters";
import type { GenreLevel } from "~/lib/catalog/genre-tree";
import type { AlbumsState, TracksState } from "~/lib/catalog/types";
import { catalogHref, withFilters } from "~/lib/catalog/url-state";
import { OptionRow } from "./option-row";

const levelLabel = (level: number) => (level === 0 ? "Genre" : level === 1 ? "Sub-genre" : `Sub-genre ${level}`);

/**
 * product-rules §2/§4 music genre filter, shared by the album and track views: the genre tree, one
 * row per level, each with "All".
 */
export function GenreTreeRows<S extends AlbumsState | TracksState>({ state, levels }: { state: S; levels: GenreLevel[] }) {
  const href = (next: S) => catalogHref(withFilters(state, next));
  return (
    <>
      {levels.map((lvl) => (
        <OptionRow
          key={lvl.level}
          label={levelLabel(lvl.level)}
          options={[
            { label: "All", href: href(chooseAll(state, lvl.level)), selected: !lvl.selected },
            ...lvl.options.map((name) => ({
              label: name,
              href: href(lvl.level === 0 ? chooseTopGenre(state, name) : chooseSubGenre(state, lvl.level, name)),
              selected: lvl.selected.toLowerCase() === name.toLowerCase(),
            })),
          ]}
        />
      ))}
    </>
  );
}
