/**
 * Spec §9 "Music genre tree (top level: children)", verbatim. The sample albums are spread
 * over its leaves so that every choice of the catalog's genre filter has matches.
 */
export interface GenreNode {
  name: string;
  children?: GenreNode[];
}

const leaves = (...names: string[]): GenreNode[] => names.map((name) => ({ name }));

export const MUSIC_GENRE_TREE: GenreNode[] = [
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
    children: leaves(
      "Afro House", "Afro Latin House", "Disco House", "Vocal House", "Chillout House", "EDM House", "Latin House",
    ),
  },
  { name: "Holidays" },
  { name: "Relaxing", children: leaves("OM Music", "Easy Listening", "Mind Healing", "Nature Sounds") },
  { name: "Brazilian", children: leaves("Bossa Nova & Samba", "Bossa Nova Instrumentals", "Bossa Nova Vocals") },
];

/** Every root-to-leaf path of the tree, as display names. */
export function genreLeafPaths(tree: GenreNode[] = MUSIC_GENRE_TREE): string[][] {
  const out: string[][] = [];
  const walk = (node: GenreNode, prefix: string[]) => {
    const path = [...prefix, node.name];
    if (node.children?.length) node.children.forEach((child) => walk(child, path));
    else out.push(path);
  };
  tree.forEach((node) => walk(node, []));
  return out;
}

/** Spec §5: for these top genres the sub-genre is matched against the album name. */
export const NAME_MATCHED_GENRES = new Set(["african", "asian", "latin"]);
