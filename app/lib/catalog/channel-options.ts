/** product-rules §9 "Channel filter options", verbatim. */
export const CHANNEL_CATEGORIES = ["Music", "Film", "Technology", "Gaming", "Education", "Lifestyle", "News", "Sports"] as const;
export const CHANNEL_COUNTRIES = ["USA", "UK", "Canada", "Germany", "France", "Japan", "Australia", "Brazil"] as const;
export const CHANNEL_LANGUAGES = ["English", "Spanish", "French", "German", "Japanese", "Portuguese", "Italian"] as const;
export const SUBSCRIBER_RANGES = ["1K-10K", "10K-100K", "100K-1M", "1M-10M", "10M+"] as const;

/** [min, max) subscriber bounds of each range label. */
const RANGE_BOUNDS: Record<string, readonly [number, number]> = {
  "1K-10K": [1_000, 10_000],
  "10K-100K": [10_000, 100_000],
  "100K-1M": [100_000, 1_000_000],
  "1M-10M": [1_000_000, 10_000_000],
  "10M+": [10_000_000, Number.POSITIVE_INFINITY],
};

export function subscriberRangeBounds(label: string): readonly [number, number] | null {
  return RANGE_BOUNDS[label] ?? null;
}

/** The canonical spelling of `value` among `options` (case-insensitive), or null. */
export function canonicalOption(options: readonly string[], value: string): string | null {
  const v = value.trim().toLowerCase();
  return options.find((o) => o.toLowerCase() === v) ?? null;
}
