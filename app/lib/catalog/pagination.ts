/** product-rules §2 "Pagination" and §9 "Catalog": 12 per page, window of current ± 2 plus first and last. */
export const PAGE_SIZE = 12;
export const PAGINATION_RADIUS = 2;

export type PaginationEntry = number | "gap";

export function pageCountFor(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(0, Math.ceil(total / pageSize));
}

/** A requested page brought into 1…pageCount (1 when there are no pages). */
export function clampPage(page: number, pageCount: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, pageCount));
}

/**
 * The page buttons to show: page 1, the last page and the pages within 2 of the current one,
 * in order, with "gap" (rendered "…") where pages are skipped. Empty when there is 1 page or
 * fewer: the whole control is hidden then.
 */
export function paginationWindow(current: number, total: number): PaginationEntry[] {
  if (total <= 1) return [];
  const page = clampPage(current, total);
  const pages = new Set<number>([1, total]);
  for (let p = page - PAGINATION_RADIUS; p <= page + PAGINATION_RADIUS; p++) {
    if (p >= 1 && p <= total) pages.add(p);
  }
  const sorted = [...pages].sort((a, b) => a - b);
  const out: PaginationEntry[] = [];
  for (const p of sorted) {
    const prev = out.length ? (out[out.length - 1] as number) : undefined;
    if (prev !== undefined && p - prev > 1) out.push("gap");
    out.push(p);
  }
  return out;
}
