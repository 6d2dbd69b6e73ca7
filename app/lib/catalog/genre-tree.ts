/**
 * product-rules §9 "Music genre tree (top level: children)", verbatim, and the level structure of the
 * music genre filter (product-rules §2 "Filters by type — Music": up to three sub-genre levels, each
 * with an "All" choice).
 *
 * The static tree is at most two levels deep under a top genre (Children → Religion →
 * Christian Holidays). Deeper levels, up to MAX_SUB_LEVELS, are derived from the catalog
 * itself: the distinct album keywords at that position among the albums that match the
 * choices made so far (ADR 0061). Levels the static tree defines always come from the tree,
 * so the filter looks the same whatever the data.
 */
export interface GenreNode {
  name: string;
  children?: GenreNode[];
}

const leaves = (...names: string[]): GenreNode[] => names.map((name) => ({ name }));

export const MUSIC_GENRE_TREE: readonly GenreNode[] = [
  {
    name: "Children",
    children: [
      { name: "Religion", children: leaves("Christian Holidays", "Jewish Holidays", "Hindu Holidays") },
      { name: "Christian Songs", children: leaves("Christian Uplifting") },
      { name: "Education" },
      {
        name: "Occasion",
        children: leaves("Birthday", "Father's Day", "Halloween", "Mother's Day", "New Year", "Party", "Valentine's Day"),
      },
    ],
  },
  { name: "Teens", children: leaves("Bar Mitzvah", "Quinceañera", "Sweet Sixteen") },
  { name: "Occasion", children: leaves("New Year", "New Year Songs Brazilian", "New Year Songs Mexican") },
  { name: "Gospel", children: leaves("English", "Latin") },
  {
    name: "Asian",
    children: leaves("Chinese", "Japan", "Khmer", "Korea", "Mongolia", "Taiwan", "Thai", "Tibet", "Vietnam"),
  },
  {
    name: "African",
    children: leaves(
      "Algeria", "Benin", "Burkina Faso", "Cape Verde", "Côte d'Ivoire", "Gambia", "Ghana", "Guinea",
      "Lesotho", "Liberia", "Libya", "Mali", "Mauritania", "Moroccan", "Namibia", "Nigeria",
      "South Africa", "Sudan", "Zambia", "Zimbabwe",
    ),
  },
  {
    name: "Latin",
    children: leaves(
      "Argentinian", "Bolivia", "Brazil", "Chile", "Colombia", "Costa Rica", "Cuba", "Dominican Republic",
      "Ecuador", "El Salvador", "French Guiana", "Guadeloupe", "Guatemala", "Haiti", "Honduran", "Mexican",
      "Nicaragua", "Panama", "Paraguay", "Puerto Rican", "Spain", "Uruguay", "Venezuela",
    ),
  },
  { name: "French", children: leaves("French Chanson & Jazz", "French Jazz") },
  { name: "Italian", children: leaves("Italo Disco", "Traditional Italian") },
  { name: "Cuban", children: leaves("Cuban Bolero", "Cuban Soul", "Cuban Street Beats") },
  {
    name: "Jazz",
    children: leaves(
      "French Jazz", "French Chanson & Jazz", "Havana Cuban Jazz", "Oldies Jazz", "Vintage Cuban Jazz",
      "Vintage Instrumental Jazz",
    ),
  },
  { name: "Religion", children: leaves("Christian Country Gospel", "Cuban Gospel") },
  {
    name: "House",
    children: leaves("Afro House", "Afro Latin House", "Disco House", "Vocal House", "Chillout House", "EDM House", "Latin House"),
  },
  { name: "Holidays" },
  { name: "Relaxing", children: leaves("OM Music", "Easy Listening", "Mind Healing", "Nature Sounds") },
  { name: "Brazilian", children: leaves("Bossa Nova & Samba", "Bossa Nova Instrumentals", "Bossa Nova Vocals") },
];

/** Sub-genre levels below the top genre (product-rules §2: "up to three sub-genre levels"). */
export const MAX_SUB_LEVELS = 3;

export const TOP_GENRES: readonly string[] = MUSIC_GENRE_TREE.map((n) => n.name);

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The canonical spelling of a top genre, or null when it is not one. */
export function canonicalTopGenre(name: string): string | null {
  return TOP_GENRES.find((g) => same(g, name)) ?? null;
}

/**
 * The static children below a path of names ([top, sub1, …]), or null when the tree does not
 * define that level (a leaf, or a path that leaves the tree). Case-insensitive.
 */
export function staticChildren(path: readonly string[], tree: readonly GenreNode[] = MUSIC_GENRE_TREE): string[] | null {
  let nodes: readonly GenreNode[] | undefined = tree;
  for (const name of path) {
    const node: GenreNode | undefined = nodes?.find((n) => same(n.name, name));
    if (!node) return null;
    nodes = node.children;
  }
  return nodes?.length ? nodes.map((n) => n.name) : null;
}

export interface GenreLevel {
  /** 0 = top genre, 1…MAX_SUB_LEVELS = sub-genre levels */
  level: number;
  options: string[];
  /** the chosen option, or "" for "All" */
  selected: string;
}

/**
 * The levels the music filter shows for a chosen path: the top level always, then one level
 * per chosen value as long as it has options. `derive(path)` supplies options for a level the
 * static tree does not define (from album keywords); it may return an empty list.
 */
export function genreLevels(
  genre: string,
  subGenres: readonly string[],
  derive: (path: string[]) => string[] = () => [],
): GenreLevel[] {
  const levels: GenreLevel[] = [{ level: 0, options: [...TOP_GENRES], selected: genre }];
  if (!genre) return levels;
  const path = [genre];
  for (let level = 1; level <= MAX_SUB_LEVELS; level++) {
    const options = staticChildren(path) ?? derive([...path]);
    if (!options.length) break;
    const selected = subGenres[level - 1] ?? "";
    levels.push({ level, options, selected });
    if (!selected) break;
    path.push(selected);
  }
  return levels;
}
