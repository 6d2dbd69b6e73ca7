/**
 * product-rules §7 "Film catalog provider": the two lists are merged by film_id. A catalog item
 * overrides the fields of the matching detail item; catalog items with no matching detail are
 * appended. Detail items keep their order; appended items keep the catalog's order.
 */
export function mergeFilmLists<T extends { film_id: string }>(catalogItems: T[], detailItems: T[]): T[] {
  const catalogById = new Map<string, T>();
  for (const item of catalogItems) catalogById.set(item.film_id, item);
  const merged: T[] = [];
  const used = new Set<string>();
  for (const detail of detailItems) {
    const override = catalogById.get(detail.film_id);
    if (override) used.add(detail.film_id);
    merged.push(override ? { ...detail, ...definedFields(override) } : detail);
  }
  for (const item of catalogItems) {
    if (!used.has(item.film_id)) {
      used.add(item.film_id);
      merged.push(item);
    }
  }
  return merged;
}

/** A catalog item's missing (undefined) field must not erase the detail's value. */
function definedFields<T extends object>(item: T): Partial<T> {
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as Partial<T>;
}
