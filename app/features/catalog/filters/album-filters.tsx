import type { GenreLevel } from "~/lib/catalog/genre-tree";
import type { AlbumsState } from "~/lib/catalog/types";
import { GenreTreeRows } from "./genre-tree-rows";

/** product-rules §2/§4 music (album view) filter: the genre tree. */
export function AlbumFilters({ state, levels }: { state: AlbumsState; levels: GenreLevel[] }) {
  return (
    <div className="flex flex-col gap-3">
      <GenreTreeRows state={state} levels={levels} />
    </div>
  );
}
