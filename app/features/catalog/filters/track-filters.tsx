import { Fragment, useId } from "react";
import { Form, useNavigate } from "react-router";
import { chooseLength, chooseTempo, chooseTrackSort, toggleKey } from "~/lib/catalog/filters";
import type { GenreLevel } from "~/lib/catalog/genre-tree";
import { LENGTH_PRESETS, sameRange, TEMPO_PRESETS, TRACK_SORT_LABELS, type RangePreset } from "~/lib/catalog/track-filters";
import { MAX_BPM, MAX_DURATION_SECONDS, RANGE_FIELDS, TRACK_SORTS } from "~/lib/catalog/track-params";
import type { NumberRange, TrackQueryResult, TrackSort } from "~/lib/catalog/track-query";
import type { TracksState } from "~/lib/catalog/types";
import { catalogHref, parseCatalogState, serializeCatalogState, withFilters } from "~/lib/catalog/url-state";
import { GenreTreeRows } from "./genre-tree-rows";
import { FilterRow, OptionRow } from "./option-row";

const href = (state: TracksState, next: TracksState) => catalogHref(withFilters(state, next));

/** The state's other parameters as hidden fields, so a GET form changes only its own (DESIGN.md §3 deviation 5). */
function HiddenState({ state, omit }: { state: TracksState; omit: string[] }) {
  const entries = [...serializeCatalogState({ ...state, page: 1, item: "" }).entries()].filter(([name]) => !omit.includes(name));
  return (
    <>
      {entries.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/**
 * A GET form that works without JavaScript: it submits its fields as they are (the range as
 * `bpm_min`/`bpm_max`, which the URL state reads as `bpm=`). With JavaScript it goes straight
 * to the canonical URL (`bpm=90-120`), the one every other link on the page uses.
 */
function useCanonicalSubmit() {
  const navigate = useNavigate();
  return (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const params = new URLSearchParams();
    for (const [name, value] of data) if (typeof value === "string") params.append(name, value);
    navigate(catalogHref(parseCatalogState(params)), { preventScrollReset: true });
  };
}

const inputClass =
  "min-h-9 w-[4.5rem] rounded-full border border-border bg-white/5 px-3 text-sm tabular-nums placeholder:text-muted/80 focus:border-ring focus:outline-none";

/** Presets as choices, then a custom range from two labelled number inputs (issue #10). */
function RangeFilter({
  state,
  label,
  param,
  range,
  presets,
  choose,
  unit,
  unitShort,
  max,
}: {
  state: TracksState;
  label: string;
  param: "bpm" | "duration";
  range: NumberRange | null;
  presets: readonly RangePreset[];
  choose: (state: TracksState, range: NumberRange | null) => TracksState;
  /** the inputs' unit, in their labels, and as shown beside them */
  unit: string;
  unitShort: string;
  max: number;
}) {
  const id = useId();
  const submit = useCanonicalSubmit();
  // the inputs show a custom range; a preset is shown as chosen among the choices instead
  const custom = range !== null && !presets.some((p) => sameRange(p.range, range));
  const fields = RANGE_FIELDS[param];
  return (
    <div className="flex flex-col gap-2">
      <OptionRow
        label={label}
        options={[
          { label: "Any", href: href(state, choose(state, null)), selected: range === null },
          ...presets.map((p) => ({ label: p.label, href: href(state, choose(state, p.range)), selected: sameRange(p.range, range) })),
        ]}
      />
      <FilterRow label={`Custom ${label.toLowerCase()}`}>
        <Form method="get" action="/catalog" preventScrollReset onSubmit={submit} className="flex flex-wrap items-center gap-x-2 gap-y-2">
          <HiddenState state={state} omit={[param]} />
          {(["min", "max"] as const).map((end) => (
            <Fragment key={end}>
              <label htmlFor={`${id}-${end}`} className="text-sm text-muted">
                <span className="sr-only">{label} </span>
                {end === "min" ? "From" : "to"}
                <span className="sr-only"> ({unit})</span>
              </label>
              <input
                id={`${id}-${end}`}
                name={fields[end]}
                type="number"
                inputMode="numeric"
                min={0}
                max={max}
                step={1}
                defaultValue={custom ? (range[end] ?? "") : ""}
                key={`${end}-${range?.[end]}`}
                className={inputClass}
              />
            </Fragment>
          ))}
          <span className="text-sm text-muted" aria-hidden="true">
            {unitShort}
          </span>
          <button type="submit" className="btn-secondary min-h-9 px-3.5 py-0 text-sm">
            Apply <span className="sr-only">{label.toLowerCase()} range</span>
          </button>
        </Form>
      </FilterRow>
    </div>
  );
}

/**
 * Issue #10 Key: the 24 keys, but only those in the current results (keyCounts, counted
 * without the key filter itself, so choosing one key still lists the others), each with its
 * count; a chosen key stays listed, to be unchosen, even when nothing matches it now.
 */
function KeyFilter({ state, keyCounts }: { state: TracksState; keyCounts: TrackQueryResult["keyCounts"] }) {
  const counts = new Map(keyCounts.map((k) => [k.key, k.count]));
  for (const k of state.keys) if (!counts.has(k)) counts.set(k, 0);
  const listed = keyCounts.map((k) => k.key).concat(state.keys.filter((k) => !keyCounts.some((c) => c.key === k)));
  if (!listed.length) {
    return (
      <FilterRow label="Key">
        <p className="text-sm text-muted">No keys among these tracks.</p>
      </FilterRow>
    );
  }
  return (
    <OptionRow
      label="Key"
      toggles
      options={listed.map((key) => {
        const count = counts.get(key) ?? 0;
        return {
          label: key,
          detail: count.toLocaleString("en-US"),
          ariaLabel: `${key}, ${count.toLocaleString("en-US")} ${count === 1 ? "track" : "tracks"}`,
          href: href(state, toggleKey(state, key)),
          selected: state.keys.includes(key),
        };
      })}
    />
  );
}

/** The sort: a GET form with a select (and its button for visitors without JavaScript). */
function SortControl({ state }: { state: TracksState }) {
  const id = useId();
  const navigate = useNavigate();
  const sorts = TRACK_SORTS.filter((s) => (s !== "relevance" || state.q) && (s !== "similarity" || state.like));
  return (
    <Form method="get" action="/catalog" preventScrollReset className="flex items-center gap-2">
      <HiddenState state={state} omit={["sort"]} />
      <label htmlFor={id} className="text-sm text-muted">
        Sort by
      </label>
      <select
        id={id}
        name="sort"
        defaultValue={state.sort}
        key={state.sort}
        onChange={(e) => navigate(href(state, chooseTrackSort(state, e.currentTarget.value as TrackSort)), { preventScrollReset: true })}
        className="min-h-9 rounded-full border border-border bg-surface px-3 text-sm focus:border-ring focus:outline-none"
      >
        {sorts.map((s) => (
          <option key={s} value={s}>
            {TRACK_SORT_LABELS[s]}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn-secondary min-h-9 px-4 py-0 text-sm">
          Sort
        </button>
      </noscript>
    </Form>
  );
}

/** Issue #10 track view filters: Tempo, Length, Key and the genre tree, each in the URL. */
export function TrackFilters({ state, levels, keyCounts }: { state: TracksState; levels: GenreLevel[]; keyCounts: TrackQueryResult["keyCounts"] }) {
  return (
    <div className="flex flex-col gap-3">
      <RangeFilter state={state} label="Tempo" param="bpm" range={state.bpm} presets={TEMPO_PRESETS} choose={chooseTempo} unit="BPM" unitShort="BPM" max={MAX_BPM} />
      <RangeFilter
        state={state}
        label="Length"
        param="duration"
        range={state.duration}
        presets={LENGTH_PRESETS}
        choose={chooseLength}
        unit="seconds"
        unitShort="sec"
        max={MAX_DURATION_SECONDS}
      />
      <KeyFilter state={state} keyCounts={keyCounts} />
      <GenreTreeRows state={state} levels={levels} />
    </div>
  );
}

export { SortControl };
