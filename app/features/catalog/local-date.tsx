import { useSyncExternalStore } from "react";
import { formatUpdated } from "~/lib/catalog/format";

const noSubscription = () => () => {};

/**
 * product-rules §2 Channel card: "Updated {local date}". The server cannot know the visitor's locale
 * or time zone, so it renders an en-US UTC date; right after hydration the browser renders
 * the local one (useSyncExternalStore's server snapshot avoids a hydration mismatch).
 */
export function LocalUpdatedDate({ iso }: { iso: string }) {
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  return <time dateTime={iso}>{inBrowser ? formatUpdated(iso) : formatUpdated(iso, "en-US", "UTC")}</time>;
}
