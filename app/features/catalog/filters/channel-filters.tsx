import { CHANNEL_CATEGORIES, CHANNEL_COUNTRIES, CHANNEL_LANGUAGES, SUBSCRIBER_RANGES } from "~/lib/catalog/channel-options";
import { chooseChannelCategory, toggleChannelCountry, toggleChannelLanguage, toggleSubscriberRange } from "~/lib/catalog/filters";
import type { ChannelsState } from "~/lib/catalog/types";
import { catalogHref, withFilters } from "~/lib/catalog/url-state";
import { OptionRow } from "./option-row";

/** product-rules §2/§4 channel filters: Category single choice; the rest multi-select toggles. */
export function ChannelFilters({ state }: { state: ChannelsState }) {
  const href = (next: ChannelsState) => catalogHref(withFilters(state, next));
  const toggles = (label: string, values: readonly string[], selected: string[], toggle: (s: ChannelsState, v: string) => ChannelsState) => (
    <OptionRow
      label={label}
      toggles
      options={values.map((v) => ({ label: v, href: href(toggle(state, v)), selected: selected.includes(v) }))}
    />
  );
  return (
    <div className="flex flex-col gap-3">
      <OptionRow
        label="Category"
        options={[
          { label: "All", href: href({ ...state, category: "" }), selected: !state.category },
          ...CHANNEL_CATEGORIES.map((c) => ({ label: c, href: href(chooseChannelCategory(state, c)), selected: state.category === c })),
        ]}
      />
      {toggles("Countries", CHANNEL_COUNTRIES, state.countries, toggleChannelCountry)}
      {toggles("Languages", CHANNEL_LANGUAGES, state.languages, toggleChannelLanguage)}
      {toggles("Subscriber Range", SUBSCRIBER_RANGES, state.subscriberRanges, toggleSubscriberRange)}
    </div>
  );
}
