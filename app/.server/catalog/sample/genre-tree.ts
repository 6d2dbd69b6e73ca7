// The sample albums are spread over the leaves of the one genre tree the catalog filter uses
// (product-rules §9), so that every choice of the filter has matches.
import { MUSIC_GENRE_TREE, type GenreNode } from "../../../lib/catalog/genre-tree.ts";
export { NAME_MATCHED_GENRES } from "../../../lib/catalog/matching.ts";
export { MUSIC_GENRE_TREE, type GenreNode };

/** Every root-to-leaf path of the tree, as display names. */
export function genreLeafPaths(tree: readonly GenreNode[] = MUSIC_GENRE_TREE): string[][] {
  const out: string[][] = [];
  const walk = (node: GenreNode, prefix: string[]) => {
    const path = [...prefix, node.name];
    if (node.children?.length) node.children.forEach((child) => walk(child, path));
    else out.push(path);
  };
  tree.forEach((node) => walk(node, []));
  return out;
}
